package lichess

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"arbiter"
)

// APIError is a non-2xx answer from Lichess: the HTTP status and the
// message Lichess put in its {"error": "..."} body (or the OAuth
// error_description), so a TD sees why a call was refused.
type APIError struct {
	Method  string
	Path    string
	Status  int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("lichess: %s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// maxErrorBody bounds how much of an error body is read: error bodies are
// tiny JSON objects, anything bigger is not worth keeping.
const maxErrorBody = 64 << 10

// readError consumes and closes resp's body and builds the error. Statuses
// with a meaning in Arbiter are wrapped in an *arbiter.Error (404 ->
// ENOTFOUND, 400 -> EINVALID, 401 -> EUNAUTHORIZED, 403 -> EFORBIDDEN) whose
// cause is the *APIError; errors.As finds either.
func readError(req request, resp *http.Response) error {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{Method: req.method, Path: req.path, Status: resp.StatusCode, Message: errorMessage(b)}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	code := ""
	switch resp.StatusCode {
	case http.StatusNotFound:
		code = arbiter.ENOTFOUND
	case http.StatusBadRequest:
		code = arbiter.EINVALID
	case http.StatusUnauthorized:
		code = arbiter.EUNAUTHORIZED
	case http.StatusForbidden:
		code = arbiter.EFORBIDDEN
	}
	if code == "" {
		return e
	}
	return &arbiter.Error{Code: code, Message: "lichess: " + e.Message, Err: e}
}

// errorMessage extracts the human text of an error body: {"error": "..."},
// the OAuth {"error": code, "error_description": "..."}, or {"error": {...}}
// field errors, falling back to the trimmed body.
func errorMessage(b []byte) string {
	var v struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
	}
	if json.Unmarshal(b, &v) == nil {
		if v.Description != "" {
			return v.Description
		}
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
		if len(v.Error) > 0 {
			return string(v.Error)
		}
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
