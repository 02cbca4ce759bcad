package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"
)

//go:embed static
var staticFS embed.FS

// assets are the embedded static files, each with a content hash. Pages
// link to /static/NAME?v=HASH, so a file can be cached for a year: a new
// build with a changed file links to a new URL.
type assets struct {
	files map[string]asset
}

type asset struct {
	data        []byte
	hash        string // first 16 hex digits of the SHA-256
	contentType string
}

func loadAssets() (*assets, error) {
	a := &assets{files: map[string]asset{}}
	entries, err := fs.ReadDir(staticFS, "static")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := staticFS.ReadFile("static/" + e.Name())
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		ct := mime.TypeByExtension(path.Ext(e.Name()))
		if ct == "" {
			ct = "text/plain; charset=utf-8"
		}
		a.files[e.Name()] = asset{data: data, hash: hex.EncodeToString(sum[:8]), contentType: ct}
	}
	return a, nil
}

// url is the template function "static": the versioned URL of a file. An
// unknown name is a template error, caught when the page renders in tests.
func (a *assets) url(name string) (string, error) {
	f, ok := a.files[name]
	if !ok {
		return "", fs.ErrNotExist
	}
	return "/static/" + name + "?v=" + f.hash, nil
}

// static serves GET /static/{file} with an ETag (conditional requests
// answer 304) and long caching for versioned URLs.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	f, ok := s.assets.files[name]
	if !ok {
		s.renderError(w, r, http.StatusNotFound, "not_found", "There is no such file.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("ETag", `"`+f.hash+`"`)
	if r.URL.Query().Get("v") == f.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=300")
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.data))
}
