package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"arbiter"
)

// Kinds of failure a caller (a background job) tells apart with
// errors.Is: whether to retry, wait, ask the TD for a new token or give up.
var (
	// ErrUnauthorized: no token, or Lichess does not know it (HTTP 401).
	ErrUnauthorized = errors.New("lichess: the token is missing or refused")
	// ErrForbidden: the token's owner may not do this (HTTP 403).
	ErrForbidden = errors.New("lichess: forbidden")
	// ErrMissingScope: a 403 because the token lacks a scope the endpoint
	// needs (APIError.Scopes lists the scopes it accepts, when Lichess says).
	ErrMissingScope = errors.New("lichess: the token lacks the scope this needs")
	// ErrNotFound: no such user, game, challenge or bulk pairing (HTTP 404).
	ErrNotFound = errors.New("lichess: not found")
	// ErrRateLimited: HTTP 429 even after waiting RateLimitPause; the
	// client's next request waits out a new pause.
	ErrRateLimited = errors.New("lichess: too many requests")
	// ErrUnavailable: Lichess is down or overloaded (HTTP 5xx, no answer).
	ErrUnavailable = errors.New("lichess: unavailable")
	// ErrBadResponse: a 2xx answer that is not what the API document
	// describes (garbage, cut short, wrong shape).
	ErrBadResponse = errors.New("lichess: unreadable answer")
)

// APIError is a non-2xx answer from Lichess: the HTTP status and the
// message Lichess put in its {"error": "..."} body (or the OAuth
// error_description), so a TD sees why a call was refused.
type APIError struct {
	Method  string
	Path    string
	Status  int
	Message string
	// Scopes are the scopes the endpoint accepts (Lichess's
	// X-Accepted-OAuth-Scopes header), set on a 401 or 403 when sent.
	Scopes []string
	// RetryAfter is how long to wait before asking again (429: RateLimitPause).
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	return fmt.Sprintf("lichess: %s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// Is matches the Err* kinds by status.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrMissingScope:
		return e.Status == http.StatusForbidden && (len(e.Scopes) > 0 || strings.Contains(strings.ToLower(e.Message), "scope"))
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrUnavailable:
		return e.Status >= 500
	}
	return false
}

// BadResponseError is a 2xx answer Arbiter could not read.
type BadResponseError struct {
	Method, Path string
	Err          error
}

func (e *BadResponseError) Error() string {
	return fmt.Sprintf("lichess: %s %s: unreadable answer: %v", e.Method, e.Path, e.Err)
}

func (e *BadResponseError) Unwrap() error { return e.Err }

func (e *BadResponseError) Is(target error) bool { return target == ErrBadResponse }

// Retryable reports whether asking again later may succeed: rate limits,
// Lichess down or answering garbage, the network. A refusal (400, 401,
// 403, 404) or a cancelled context is final.
func Retryable(err error) bool {
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	case errors.Is(err, ErrRateLimited), errors.Is(err, ErrUnavailable), errors.Is(err, ErrBadResponse):
		return true
	}
	var ae *APIError
	return !errors.As(err, &ae) // a transport error: no answer at all
}

// RetryAfter is how long Lichess asked to wait before the next request
// (RateLimitPause after a 429), 0 when it did not say.
func RetryAfter(err error) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}

// maxErrorBody bounds how much of an error body is read: error bodies are
// tiny JSON objects, anything bigger is not worth keeping.
const maxErrorBody = 64 << 10

// readError consumes and closes resp's body and builds the error. Statuses
// with a meaning in Arbiter are wrapped in an *arbiter.Error (404 ->
// ENOTFOUND, 400 -> EINVALID, 401 -> EUNAUTHORIZED, 403 -> EFORBIDDEN)
// whose cause is the *APIError; errors.As finds either. A 429 or 5xx
// stays a bare *APIError (ErrRateLimited, ErrUnavailable): the caller
// says what failed in its own words (app: "try again later").
func readError(req request, resp *http.Response) error {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{Method: req.method, Path: req.path, Status: resp.StatusCode, Message: errorMessage(b)}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	if h := resp.Header.Get("X-Accepted-OAuth-Scopes"); h != "" {
		e.Scopes = parseScopes(h)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		e.RetryAfter = RateLimitPause
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
