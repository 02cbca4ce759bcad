package web

import "net/http"

// publicRoutes registers the public event pages: pairings, crosstable, bracket, pools, player and team pages.
func (s *Server) publicRoutes() {}

// apiPublicRoutes are the API routes of the public event pages: pairings, crosstable, bracket, pools, player and team pages.
var apiPublicRoutes = []apiRoute{}

var _ http.Handler
