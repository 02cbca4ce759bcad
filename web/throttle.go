package web

import (
	"sync"
	"time"
)

// loginLimiter allows a few failed password sign-ins per account name per
// minute, so a local password cannot be guessed quickly. It is per
// process, which is enough to make guessing slow.
type loginLimiter struct {
	mu    sync.Mutex
	fails map[string][]time.Time
}

const (
	loginFailures = 5
	loginWindow   = time.Minute
)

func (l *loginLimiter) recent(name string, now time.Time) []time.Time {
	var keep []time.Time
	for _, t := range l.fails[name] {
		if now.Sub(t) < loginWindow {
			keep = append(keep, t)
		}
	}
	if l.fails == nil {
		l.fails = map[string][]time.Time{}
	}
	if keep == nil {
		delete(l.fails, name)
	} else {
		l.fails[name] = keep
	}
	return keep
}

func (l *loginLimiter) allow(name string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(name, now)) < loginFailures
}

func (l *loginLimiter) fail(name string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fails[name] = append(l.recent(name, now), now)
}
