package jobs

import (
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// Backoff is the retry policy: a job that failed its n-th attempt runs
// again after BackoffBase·2^(n-1), at most BackoffMax, plus up to a tenth
// more at random so that jobs failing together do not retry together
// (30 s, 1 min, 2 min, 4 min, ...).
type Backoff struct{ Now func() time.Time }

// The backoff's first delay and its cap.
const (
	BackoffBase = 30 * time.Second
	BackoffMax  = time.Hour
)

// Delay is the wait after the attempt-th failure, before the jitter.
func Delay(attempt int) time.Duration {
	d := BackoffBase
	for i := 1; i < attempt && d < BackoffMax; i++ {
		d *= 2
	}
	return min(d, BackoffMax)
}

// NextRetry implements River's ClientRetryPolicy.
func (b Backoff) NextRetry(j *rivertype.JobRow) time.Time {
	d := Delay(max(j.Attempt, 1))
	return b.Now().Add(d + rand.N(d/10+1))
}
