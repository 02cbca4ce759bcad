package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The headers of a delivery.
const (
	SignatureHeader = "X-Arbiter-Signature"
	EventHeader     = "X-Arbiter-Event"
	DeliveryHeader  = "X-Arbiter-Delivery"
	UserAgent       = "Arbiter-Webhooks/1"
)

// DefaultTolerance is how far from the receiver's clock Verify accepts a
// signature's timestamp.
const DefaultTolerance = 5 * time.Minute

// Sign returns the X-Arbiter-Signature value of body sent at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Errors of Verify.
var (
	ErrNoSignature = errors.New("webhook: no valid signature")
	ErrTooOld      = errors.New("webhook: the signature's timestamp is outside the tolerance")
)

// Verify checks header (an X-Arbiter-Signature value) against body as
// received, at now: the timestamp must be within tolerance of now (0:
// DefaultTolerance) and one of the v1 signatures must match. (A header
// may carry several v1 values; Arbiter sends one.)
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrNoSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w (%s off)", ErrTooOld, d.Round(time.Second))
	}
	want := []byte(mac(secret, ts, body))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			return nil
		}
	}
	return ErrNoSignature
}
