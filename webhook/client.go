package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one try: connecting, sending, and the receiver's
// answer. A receiver should answer at once and do its work afterwards.
const DefaultTimeout = 10 * time.Second

// maxRedirects bounds the redirects followed (to the same host).
const maxRedirects = 3

// Client sends deliveries. It is safe for concurrent use.
type Client struct {
	http         *http.Client
	allowPrivate bool
}

// Options configure a Client.
type Options struct {
	// AllowPrivate lets webhooks reach loopback and private addresses
	// (serve --webhooks-allow-private): for a receiver on the same
	// machine or network, and for tests.
	AllowPrivate bool
	// Timeout bounds one try (0: DefaultTimeout).
	Timeout time.Duration
}

// NewClient returns a client as o says.
func NewClient(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	d := &net.Dialer{Timeout: o.Timeout}
	if !o.AllowPrivate {
		d.Control = dialControl
	}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy from the environment would be dialled instead of the receiver, unchecked
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Client{allowPrivate: o.AllowPrivate, http: &http.Client{Transport: tr, Timeout: o.Timeout, CheckRedirect: checkRedirect}}
}

// ErrRedirect is wrapped by the error of a redirect the client refused.
var ErrRedirect = errors.New("webhook: redirect not followed")

// checkRedirect follows a 307 or 308 (which keep the POST and its body) to
// the same host, at most maxRedirects times, and only from http to https,
// never back. Anything else is refused: a webhook must not be bounced to
// another host (which might be inside the network) or turned into a GET.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	switch {
	case len(via) > maxRedirects:
		return fmt.Errorf("%w: more than %d redirects", ErrRedirect, maxRedirects)
	case req.Method != http.MethodPost:
		return fmt.Errorf("%w: %s answered %d to %s; only 307 and 308 keep the POST", ErrRedirect, first.Host, req.Response.StatusCode, req.URL.Redacted())
	case !strings.EqualFold(req.URL.Host, first.Host):
		return fmt.Errorf("%w: %s redirects to another host (%s)", ErrRedirect, first.Host, req.URL.Host)
	case req.URL.Scheme != first.Scheme && req.URL.Scheme != "https":
		return fmt.Errorf("%w: %s redirects from https to http", ErrRedirect, first.Host)
	}
	return nil
}

// Request is one try of a delivery.
type Request struct {
	URL      string
	Secret   string
	Event    string // the type: round.published, ...
	Delivery string // the delivery's ID, the same on every try
	Body     []byte
	At       time.Time // when it is sent: the signature's timestamp
}

// Response is what the receiver answered.
type Response struct {
	Status int    // the HTTP status; 0 when no answer came
	Body   string // the start of the answer, for the delivery log
}

// StatusError is a receiver's answer other than 2xx.
type StatusError struct{ Response }

func (e *StatusError) Error() string {
	s := fmt.Sprintf("the receiver answered %d %s", e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		s += ": " + e.Body
	}
	return s
}

// Permanent reports whether trying again cannot help: the URL or its
// address is refused, or a redirect was. (A receiver's error answer, a
// timeout or a refused connection may pass.)
func Permanent(err error) bool {
	return errors.Is(err, ErrBlocked) || errors.Is(err, ErrRedirect) || errors.Is(err, errBadURL)
}

var errBadURL = errors.New("webhook: URL refused")

// logBody is how much of an answer the delivery log keeps; drainBody how
// much is read at most (so that the connection may be reused).
const (
	logBody   = 300
	drainBody = 64 << 10
)

// Send makes one try: it signs r.Body and POSTs it. A 2xx answer is a
// success; any other is a *StatusError with the response.
func (c *Client) Send(ctx context.Context, r Request) (Response, error) {
	u, err := CheckURL(r.URL, c.allowPrivate)
	if err != nil {
		return Response{}, fmt.Errorf("%w: %v", errBadURL, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(r.Body))
	if err != nil {
		return Response{}, fmt.Errorf("%w: %v", errBadURL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(EventHeader, r.Event)
	req.Header.Set(DeliveryHeader, r.Delivery)
	req.Header.Set(SignatureHeader, Sign(r.Secret, r.At, r.Body))
	resp, err := c.http.Do(req)
	if err != nil {
		return Response{}, sendError(err)
	}
	defer resp.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, logBody))
	io.Copy(io.Discard, io.LimitReader(resp.Body, drainBody))
	out := Response{Status: resp.StatusCode, Body: printable(head)}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return out, &StatusError{out}
	}
	return out, nil
}

// sendError strips net/http's "Post "URL":" prefix (the URL is on the
// console already) and keeps what happened.
func sendError(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	if ue.Timeout() {
		return fmt.Errorf("no answer within the timeout: %w", ue.Err)
	}
	return ue.Err
}

// printable keeps the valid UTF-8 of b on one line.
func printable(b []byte) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "")), " ")
}
