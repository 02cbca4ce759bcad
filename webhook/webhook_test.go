package webhook

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestSign: the signature of a fixed body, computed independently with
// `openssl dgst -sha256 -hmac whsec_test` over "1680436800." + body.
func TestSign(t *testing.T) {
	t.Parallel()
	body := []byte(`{"type":"round.published"}`)
	at := time.Unix(1680436800, 0)
	got := Sign("whsec_test", at, body)
	want := "t=1680436800,v1=8c2d436bea242d0b6f857acf4491476da8e53370aa788bba016070e053ce6402"
	if got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	for _, c := range []struct {
		name   string
		secret string
		header string
		body   string
		now    time.Time
		want   error
	}{
		{"as sent", "whsec_test", want, string(body), at.Add(time.Minute), nil},
		{"just inside the tolerance", "whsec_test", want, string(body), at.Add(-DefaultTolerance), nil},
		{"another v1 first", "whsec_test", "t=1680436800,v1=00,v1=8c2d436bea242d0b6f857acf4491476da8e53370aa788bba016070e053ce6402", string(body), at, nil},
		{"replayed later", "whsec_test", want, string(body), at.Add(DefaultTolerance + time.Second), ErrTooOld},
		{"from the future", "whsec_test", want, string(body), at.Add(-DefaultTolerance - time.Second), ErrTooOld},
		{"body changed", "whsec_test", want, `{"type":"round.closed"}`, at, ErrNoSignature},
		{"timestamp changed", "whsec_test", strings.Replace(want, "t=1680436800", "t=1680436801", 1), string(body), at, ErrNoSignature},
		{"wrong secret", "whsec_other", want, string(body), at, ErrNoSignature},
		{"no v1", "whsec_test", "t=1680436800", string(body), at, ErrNoSignature},
		{"no t", "whsec_test", "v1=8c2d436bea242d0b6f857acf4491476da8e53370aa788bba016070e053ce6402", string(body), at, ErrNoSignature},
		{"empty", "whsec_test", "", string(body), at, ErrNoSignature},
	} {
		err := Verify(c.secret, c.header, []byte(c.body), c.now, 0)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: Verify = %v, want %v", c.name, err, c.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url          string
		allowPrivate bool
		ok           bool
	}{
		{"https://bot.example.org/arbiter", false, true},
		{"http://bot.example.org:8080/hook?x=1", false, true},
		{"https://8.8.8.8/hook", false, true},
		{"https://[2606:4700::1111]/hook", false, true},
		{"ftp://bot.example.org/hook", false, false},
		{"file:///etc/passwd", false, false},
		{"javascript:alert(1)", false, false},
		{"gopher://127.0.0.1:25/", true, false},
		{"bot.example.org/hook", false, false},
		{"https://user:pw@bot.example.org/hook", false, false},
		{"https://bot.example.org/hook#x", false, false},
		{"https:///nohost", false, false},
		{"http://localhost:9000/hook", false, false},
		{"http://LOCALHOST./hook", false, false},
		{"http://api.localhost/hook", false, false},
		{"http://127.0.0.1/hook", false, false},
		{"http://127.1.2.3/hook", false, false},
		{"http://[::1]/hook", false, false},
		{"http://10.0.0.8/hook", false, false},
		{"http://172.16.5.4/hook", false, false},
		{"http://192.168.1.1/hook", false, false},
		{"http://169.254.169.254/latest/meta-data/", false, false},
		{"http://[fe80::1]/hook", false, false},
		{"http://[fd00::1]/hook", false, false},
		{"http://[::ffff:127.0.0.1]/hook", false, false},
		{"http://0.0.0.0/hook", false, false},
		{"http://100.64.0.1/hook", false, false},
		{"http://localhost:9000/hook", true, true},
		{"http://127.0.0.1:9000/hook", true, true},
		{"http://10.0.0.8/hook", true, true},
	} {
		_, err := CheckURL(c.url, c.allowPrivate)
		if (err == nil) != c.ok {
			t.Errorf("CheckURL(%q, allowPrivate=%v) = %v, want ok=%v", c.url, c.allowPrivate, err, c.ok)
		}
	}
}

func TestBlocked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ip      string
		blocked bool
	}{
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"2606:4700::1111", false}, {"64:ff9b::808:808", false},
		{"127.0.0.1", true}, {"::1", true}, {"10.1.2.3", true}, {"172.31.255.255", true}, {"192.168.0.1", true},
		{"169.254.169.254", true}, {"fe80::1", true}, {"fc00::1", true}, {"0.0.0.0", true}, {"::", true},
		{"224.0.0.1", true}, {"ff02::1", true}, {"255.255.255.255", true}, {"100.100.100.100", true},
		{"198.18.0.1", true}, {"240.0.0.1", true}, {"::ffff:10.0.0.1", true},
		{"64:ff9b::7f00:1", true}, // NAT64 of 127.0.0.1
		{"2002:a00:1::", true},    // 6to4 of 10.0.0.1
		{"2001:db8::1", true},
	} {
		if got := Blocked(netip.MustParseAddr(c.ip)); got != c.blocked {
			t.Errorf("Blocked(%s) = %v, want %v", c.ip, got, c.blocked)
		}
	}
}

// receiver is a test server that records the deliveries it gets.
func receiver(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func req(url string) Request {
	return Request{URL: url, Secret: "whsec_test", Event: "round.published", Delivery: "wd1", Body: []byte(`{"id":"x"}`), At: time.Now()}
}

// TestSendSigned: a delivery reaches an allowed receiver with its headers
// and a signature the receiver verifies; a 500 is a StatusError with the
// answer's start.
func TestSendSigned(t *testing.T) {
	t.Parallel()
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get(EventHeader) != "round.published" || r.Header.Get(DeliveryHeader) != "wd1" ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != UserAgent {
			http.Error(w, "bad headers", http.StatusBadRequest)
			return
		}
		if err := Verify("whsec_test", r.Header.Get(SignatureHeader), body, time.Now(), 0); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("fail") != "" {
			http.Error(w, "database\n down", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	c := NewClient(Options{AllowPrivate: true})
	resp, err := c.Send(context.Background(), req(srv.URL+"/hook"))
	if err != nil || resp.Status != http.StatusNoContent {
		t.Fatalf("Send = %+v, %v", resp, err)
	}
	resp, err = c.Send(context.Background(), req(srv.URL+"/hook?fail=1"))
	var se *StatusError
	if !errors.As(err, &se) || resp.Status != 500 || resp.Body != "database down" || Permanent(err) {
		t.Fatalf("a 500: %+v, %v", resp, err)
	}
}

// TestSendRefusesPrivate: without AllowPrivate nothing is sent to a
// loopback address, given as a literal (refused before dialling) or as a
// name that resolves to it (refused when dialling: what a name pointing
// inside the network, or re-pointed after the check, meets).
func TestSendRefusesPrivate(t *testing.T) {
	t.Parallel()
	srv, hits := receiver(t, func(w http.ResponseWriter, r *http.Request) {})
	c := NewClient(Options{})
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	if _, err := c.Send(context.Background(), req(srv.URL)); !Permanent(err) {
		t.Errorf("a loopback literal: %v", err)
	}
	// The dial-time check, without CheckURL's refusal of the name.
	hc := c.http
	r, _ := http.NewRequest(http.MethodPost, "http://localhost:"+port+"/", strings.NewReader("{}"))
	if _, err := hc.Do(r); !errors.Is(err, ErrBlocked) {
		t.Errorf("a name resolving to loopback: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the receiver got %d requests", n)
	}
}

// TestSendRedirects: a 307 to the same host is followed with the POST and
// its body; a redirect to another host, and a 302 (which would turn the
// POST into a GET), are not followed.
func TestSendRedirects(t *testing.T) {
	t.Parallel()
	other, otherHits := receiver(t, func(w http.ResponseWriter, r *http.Request) {})
	var srv *httptest.Server
	srv, _ = receiver(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/other":
			http.Redirect(w, r, other.URL+"/steal", http.StatusPermanentRedirect)
		case "/found":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/final":
			if b, _ := io.ReadAll(r.Body); r.Method != http.MethodPost || string(b) != `{"id":"x"}` {
				w.WriteHeader(http.StatusBadRequest)
			}
		}
	})
	c := NewClient(Options{AllowPrivate: true})
	if resp, err := c.Send(context.Background(), req(srv.URL+"/same")); err != nil || resp.Status != 200 {
		t.Errorf("a 307 to the same host: %+v, %v", resp, err)
	}
	if _, err := c.Send(context.Background(), req(srv.URL+"/other")); !errors.Is(err, ErrRedirect) || !Permanent(err) {
		t.Errorf("a redirect to another host: %v", err)
	}
	if otherHits.Load() != 0 {
		t.Error("the other host was reached")
	}
	if _, err := c.Send(context.Background(), req(srv.URL+"/found")); !errors.Is(err, ErrRedirect) {
		t.Errorf("a 302: %v", err)
	}
}

// TestSendTimeout: a receiver that does not answer within the timeout is
// given up on (and may be tried again later).
func TestSendTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	defer close(release)
	c := NewClient(Options{AllowPrivate: true, Timeout: 200 * time.Millisecond})
	_, err := c.Send(context.Background(), req(srv.URL))
	if err == nil || !strings.Contains(err.Error(), "no answer within the timeout") || Permanent(err) {
		t.Fatalf("a silent receiver: %v", err)
	}
}
