// live.js: live updates of the page (server-sent events); see web/live.go.
