package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"

	"arbiter/app"
)

// The one browser of the test binary: every test opens its own browser
// contexts (separate cookie jars) in it.
var (
	browser    context.Context // nil when there is none; see noBrowser
	noBrowser  string          // why there is no browser
	chromePath string
)

// chromiumNames are the executables looked for on $PATH, Debian's first;
// $ARBITER_CHROMIUM names another one.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome"}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// The flows mostly wait (for Chromium, for the live stream, for
	// jobs), so -test.parallel's default, GOMAXPROCS (2 on a 2-core box),
	// left the package's wall time near the sum of its tests' over two;
	// six at once keep both cores busy. An explicit -parallel wins.
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", "6")
	}
	// Every site hashes the local TD's password and every sign-in checks
	// it: 1000 PBKDF2 rounds instead of production's 600 000 (about 0.2 s
	// of CPU a hash). app's TestPasswordHashCost checks the real cost.
	app.PasswordIterations = 1000
	chromePath = os.Getenv("ARBITER_CHROMIUM")
	for _, n := range chromiumNames {
		if chromePath != "" {
			break
		}
		chromePath, _ = exec.LookPath(n)
	}
	if chromePath == "" {
		noBrowser = "no chromium on $PATH (apt-get install chromium)"
		return m.Run()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromePath),
		chromedp.NoSandbox, // the tests may run as root in a container
		// Loopback only: the test server is on 127.0.0.1 and nothing
		// else resolves.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(1280, 900),
		// Headless Chromium still builds a browser window for every tab
		// (each test user's browser context needs a window of its own),
		// and each window preloads the omnibox's popup, two WebUI pages
		// in renderers of their own that follow every navigation. No test
		// uses the omnibox: without them a tab costs about half the CPU
		// (Translate and BlinkGenPropertyTrees are chromedp's defaults,
		// which this flag replaces).
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup"),
	)
	if os.Getenv("ARBITER_BROWSER_VISIBLE") != "" {
		opts = append(opts, chromedp.Flag("headless", false))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// Start the browser now, with no timeout on this first call (a
	// timeout here would stop the whole browser when it fires).
	if err := chromedp.Do(bctx); err != nil {
		noBrowser = fmt.Sprintf("%s does not start: %v", chromePath, err)
		return m.Run()
	}
	browser = bctx
	return m.Run()
}

// needBrowser skips the test when there is no browser, or fails it when
// $CI is set (CI must run the browser tests).
func needBrowser(t *testing.T) {
	t.Helper()
	if browser != nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("browser tests cannot run: %s (CI is set, so this is a failure)", noBrowser)
	}
	t.Skipf("browser tests skipped: %s", noBrowser)
}
