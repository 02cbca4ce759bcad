package web

// liveRoutes registers the live-update streams (server-sent events).
func (s *Server) liveRoutes() {}
