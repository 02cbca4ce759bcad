// Package lichess is a small client for the Lichess HTTP API: the users,
// games, teams and challenges that Arbiter needs to check eligibility,
// verify reported results and start games. It uses net/http only and
// decodes just the fields Arbiter reads, into its own types; the engines
// never see them (eligibility.go converts a profile into the snapshot the
// eligibility rules judge).
//
// Lichess asks API clients to make one request at a time and to wait a full
// minute after an HTTP 429 before trying again; the Client does both (see
// Client.do). Time is injected through TimeSource so tests never wait.
package lichess

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// DefaultBaseURL is the production API.
const DefaultBaseURL = "https://lichess.org"

// DefaultUserAgent names the client to Lichess, who ask bots and tools to identify themselves.
const DefaultUserAgent = "arbiter (tournament director tool)"

// RateLimitPause is how long Lichess asks clients to wait after an HTTP 429.
const RateLimitPause = 60 * time.Second

// TimeSource is the client's view of time, injectable so tests observe waits
// without sleeping. Sleep must return ctx.Err() if ctx ends first.
type TimeSource interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Options configure a Client; the zero value talks to lichess.org anonymously.
type Options struct {
	BaseURL    string       // default DefaultBaseURL; tests pass an httptest URL
	Token      string       // OAuth bearer token; empty for anonymous requests
	UserAgent  string       // default DefaultUserAgent
	HTTPClient *http.Client // default a client without overall timeout (streams are long); use ctx for deadlines
	Time       TimeSource   // default the real clock
	// MinInterval is the least time between the starts of two requests
	// (default 1 s). Lichess serialises requests anyway; the spacing keeps
	// bursts of short requests polite.
	MinInterval time.Duration
	// Retries429 is how many times a request answered 429 is retried after
	// the RateLimitPause (default 1; negative means never).
	Retries429 int
}

// Client calls the Lichess API. It is safe for concurrent use: requests
// are serialised (one in flight, including a stream being read). Clients
// made with WithToken share that single slot, the spacing and any 429 pause.
type Client struct {
	base  *url.URL
	token string
	ua    string
	hc    *http.Client
	clock TimeSource
	*gate
}

// gate is the state every request passes through, shared by a Client and
// its WithToken copies: Lichess's limits are per IP as well as per token.
type gate struct {
	limiter *rate.Limiter
	retries int

	// sem holds the single request slot; a streaming response keeps it
	// until the caller stops iterating.
	sem chan struct{}

	mu         sync.Mutex
	pauseUntil time.Time // set after a 429: nobody starts a request before it
}

// WithToken returns a Client that sends token (e.g. a player's OAuth
// token after sign-in) and shares c's request slot and rate limits.
func (c *Client) WithToken(token string) *Client {
	d := *c
	d.token = token
	return &d
}

// New returns a Client. It fails only on a malformed BaseURL.
func New(o Options) (*Client, error) {
	base := o.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("lichess: base URL %q: want an absolute http(s) URL", base)
	}
	c := &Client{
		base:  u,
		token: o.Token,
		ua:    o.UserAgent,
		hc:    o.HTTPClient,
		clock: o.Time,
		gate:  &gate{retries: o.Retries429, sem: make(chan struct{}, 1)},
	}
	if c.ua == "" {
		c.ua = DefaultUserAgent
	}
	if c.hc == nil {
		c.hc = &http.Client{}
	}
	if c.clock == nil {
		c.clock = realClock{}
	}
	if c.retries == 0 {
		c.retries = 1
	}
	if c.retries < 0 {
		c.retries = 0
	}
	every := o.MinInterval
	if every <= 0 {
		every = time.Second
	}
	c.limiter = rate.NewLimiter(rate.Every(every), 1)
	return c, nil
}

// request describes one API call. Body is kept as bytes so a request can
// be sent again after a 429 pause.
type request struct {
	method      string
	path        string // already escaped
	query       url.Values
	accept      string
	contentType string
	body        []byte
}

func form(v url.Values) ([]byte, string) {
	return []byte(v.Encode()), "application/x-www-form-urlencoded"
}

// acquire takes the request slot, then waits for the rate limiter and any
// 429 pause. The caller must call release (exactly once) when the response
// body is finished with.
func (c *Client) acquire(ctx context.Context) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := c.waitTurn(ctx); err != nil {
		c.release()
		return err
	}
	return nil
}

func (c *Client) release() { <-c.sem }

func (c *Client) waitTurn(ctx context.Context) error {
	c.mu.Lock()
	until := c.pauseUntil
	c.mu.Unlock()
	if d := until.Sub(c.clock.Now()); d > 0 {
		if err := c.clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
	// Reserve against the injected clock so the spacing is deterministic in tests.
	r := c.limiter.ReserveN(c.clock.Now(), 1)
	if d := r.DelayFrom(c.clock.Now()); d > 0 {
		if err := c.clock.Sleep(ctx, d); err != nil {
			r.CancelAt(c.clock.Now())
			return err
		}
	}
	return ctx.Err()
}

// do sends req and returns a successful response whose body the caller
// must close, then call c.release. On error the slot is already released.
// A 429 sets a RateLimitPause for every later request and, within the
// retry budget, sends the request again after it.
func (c *Client) do(ctx context.Context, req request) (*http.Response, error) {
	if err := c.acquire(ctx); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, req)
		if err != nil {
			c.release()
			return nil, err
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return resp, nil
		}
		apiErr := readError(req, resp)
		if resp.StatusCode == http.StatusTooManyRequests {
			c.mu.Lock()
			c.pauseUntil = c.clock.Now().Add(RateLimitPause)
			c.mu.Unlock()
			if attempt < c.retries {
				if err := c.waitTurn(ctx); err != nil {
					c.release()
					return nil, err
				}
				continue
			}
		}
		c.release()
		return nil, apiErr
	}
}

func (c *Client) send(ctx context.Context, req request) (*http.Response, error) {
	// Paths are built from escaped segments (pathEscape), so parsing the
	// concatenation keeps a name like "a/b" inside its segment.
	u, err := url.Parse(c.base.String() + req.path)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s %s: %w", req.method, req.path, err)
	}
	if len(req.query) > 0 {
		u.RawQuery = req.query.Encode()
	}
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s %s: %w", req.method, req.path, err)
	}
	hr.Header.Set("User-Agent", c.ua)
	if req.accept != "" {
		hr.Header.Set("Accept", req.accept)
	} else {
		hr.Header.Set("Accept", "application/json")
	}
	if req.contentType != "" {
		hr.Header.Set("Content-Type", req.contentType)
	}
	if c.token != "" {
		hr.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("lichess: %s %s: %w: %w", req.method, req.path, ErrUnavailable, err)
	}
	return resp, nil
}

// getJSON performs req and decodes the JSON body into out.
func (c *Client) getJSON(ctx context.Context, req request, out any) error {
	resp, err := c.do(ctx, req)
	if err != nil {
		return err
	}
	defer c.release()
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BadResponseError{Method: req.method, Path: req.path, Err: err}
	}
	return nil
}

// pathEscape escapes one path segment (user names and ids are plain ASCII
// on Lichess, but a stray "/" or "?" must not change the endpoint).
func pathEscape(s string) string { return url.PathEscape(s) }
