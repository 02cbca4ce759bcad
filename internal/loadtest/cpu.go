package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) this process has used so far.
// On a machine shared with other work, latencies say how busy the machine
// was; CPU time per request says what a request costs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
