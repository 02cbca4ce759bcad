package webhook

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// CheckURL reads a webhook's URL and refuses what may never be one: a
// scheme other than http or https, no host, user information (a secret
// belongs in the signature, not in an address shown on the console), and,
// unless allowPrivate, a host that names this machine or a non-public
// address ("localhost", 127.0.0.1, 10.0.0.8, [::1], 169.254.169.254).
// Host names are resolved only when a delivery is sent (Client), where
// the address dialled is checked again.
func CheckURL(raw string, allowPrivate bool) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("not a URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("a webhook's URL starts with https:// or http://, not %q", u.Scheme+":")
	}
	if u.Hostname() == "" || u.Opaque != "" {
		return nil, fmt.Errorf("the URL has no host")
	}
	if u.User != nil {
		return nil, fmt.Errorf("the URL may not hold a user name or password (the signature authenticates Arbiter)")
	}
	if u.Fragment != "" {
		return nil, fmt.Errorf("the URL may not have a #fragment")
	}
	if allowPrivate {
		return u, nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil, fmt.Errorf("%s is this machine: a webhook goes to a public address", u.Hostname())
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if Blocked(ip) {
			return nil, fmt.Errorf("%s is not a public address: a webhook goes to a public address", u.Hostname())
		}
	}
	return u, nil
}

// nonPublic are IPv4 ranges beyond what netip's predicates catch: "this
// network", shared address space (carrier NAT), IETF protocol
// assignments, benchmarking, documentation, reserved and broadcast.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// Blocked reports whether ip is not a public unicast address: loopback,
// private (RFC 1918, fc00::/7), link-local (169.254.0.0/16 with the
// clouds' metadata service, fe80::/10), unspecified, multicast or one of
// the reserved ranges. An IPv4 address inside IPv6 (mapped, NAT64, 6to4)
// is judged as the IPv4 address it carries.
func Blocked(ip netip.Addr) bool {
	ip = embedded(ip.Unmap())
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return true
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// embedded returns the IPv4 address a NAT64 or 6to4 address carries, or
// ip itself.
func embedded(ip netip.Addr) netip.Addr {
	b := ip.As16()
	switch {
	case ip.Is6() && nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case ip.Is6() && sixTo4.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	return ip
}

// ErrBlocked is wrapped by the error of a connection refused because its
// address is not public.
var ErrBlocked = fmt.Errorf("webhook: address not allowed")

// dialControl refuses, at the moment of connecting, an address that is not
// public: the check that counts, since it sees the address DNS gave.
func dialControl(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrBlocked, address)
	}
	if Blocked(ap.Addr()) {
		return fmt.Errorf("%w: %s is not a public address", ErrBlocked, ap.Addr())
	}
	return nil
}
