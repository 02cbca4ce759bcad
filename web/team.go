package web

import "net/http"

// teamRoutes registers captains' and players' pages.
func (s *Server) teamRoutes() {}

// apiTeamRoutes are the API routes of captains' and players' pages.
var apiTeamRoutes = []apiRoute{}

var _ http.Handler
