package web

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arbiter"
)

// Password sign-in is throttled per client address and per account by
// package app (app.SignInLocal); the web app tells it the client's
// address.

// clientAddr is the address of the client that sent r: the peer's IP, or
// behind a trusted reverse proxy (Config.TrustProxy) the last address of
// X-Forwarded-For, the one the proxy itself appended (earlier ones come
// from the client and prove nothing). An IPv6 address is taken as its /64
// network: one client usually holds a whole /64, and would otherwise
// count as 2^64 clients.
func (s *Server) clientAddr(r *http.Request) string {
	if s.trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
				return clientNet(ip)
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		return clientNet(ip)
	}
	return host
}

func clientNet(ip net.IP) string {
	if ip.To4() != nil {
		return ip.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// setRetryAfter sets Retry-After from an error that asks the client to
// wait (too many requests, a saturated database).
func setRetryAfter(w http.ResponseWriter, err error) {
	if d := arbiter.RetryAfter(err); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((d+time.Second-1)/time.Second)))
	}
}
