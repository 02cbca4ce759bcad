package web

import "net/http"

// tdRoutes registers the TD console.
func (s *Server) tdRoutes() {}

// apiTDRoutes are the API routes of the TD console.
var apiTDRoutes = []apiRoute{}

var _ http.Handler
