// Package webhook sends Arbiter's outgoing webhooks and lets a receiver
// check them (docs/exports.md, "Webhooks").
//
// A delivery is an HTTP POST of a JSON body with these headers:
//
//	Content-Type: application/json
//	User-Agent: Arbiter-Webhooks/1
//	X-Arbiter-Event: round.published
//	X-Arbiter-Delivery: wd3k9...        (the same on every try of one delivery)
//	X-Arbiter-Signature: t=1680436800,v1=5257a869...
//
// v1 is the lower-case hex HMAC-SHA256, keyed with the webhook's secret,
// of the timestamp t (Unix seconds, when the try was sent), a full stop,
// and the body exactly as received. A receiver recomputes it, compares in
// constant time, and refuses a t too far from its own clock (Verify), so
// a captured request cannot be replayed later; within the tolerance it
// drops a delivery ID it has already seen.
//
// The sender (Client) refuses what would let a webhook reach inside the
// server's network (SSRF): URLs other than http and https, and, unless
// allowed, loopback, private, link-local and other non-public addresses,
// checked on the address actually dialled (after DNS, on every
// connection, so a name that resolves to 127.0.0.1 is refused too). It
// never follows a redirect to another host and gives up after a timeout.
package webhook
