package stacks

import (
	"strings"
	"testing"
	"time"

	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/store/embedded"
	"tenger/internal/upload/diskstore"
)

// routeMatches reports whether an API Gateway route path serves path:
// exactly, or as a greedy "{proxy+}" prefix (which needs at least one more
// character after the prefix).
func routeMatches(route, path string) bool {
	if prefix, ok := strings.CutSuffix(route, "{proxy+}"); ok {
		return strings.HasPrefix(path, prefix) && len(path) > len(prefix)
	}
	return route == path
}

// selectRoute is API Gateway HTTP API route selection over every function's
// routes: the most specific matching route wins, an exact path over any
// greedy {proxy+} route, and among greedy routes the longest prefix. It
// returns the function and the route ("" when no route matches).
func selectRoute(path string) (fn, route string) {
	best := -1
	for _, f := range apiFunctions {
		for _, r := range f.Routes {
			if !routeMatches(r, path) {
				continue
			}
			score := len(strings.TrimSuffix(r, "{proxy+}"))
			if !strings.HasSuffix(r, "{proxy+}") {
				score += 1 << 20 // exact beats greedy
			}
			if score > best {
				best, fn, route = score, f.Name, r
			}
		}
	}
	return fn, route
}

func areaDeps(t *testing.T, dev bool) *platform.Deps {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	// The areas' services read the store when built (market data rebuilds
	// from it), so the routers are built on a real, empty embedded store.
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	// As in AWS, the services reach the engine task's endpoint (only built
	// here: listing routes sends nothing).
	return &platform.Deps{Store: st, Coins: cc, Markets: markets.Defaults(), Now: time.Now, Config: platform.Config{Dev: dev},
		EngineRemote: platform.NewRemoteEngine(st, cc, []byte("routes-test-engine-key-0123456789abcdef"))}
}

// checkArea asserts that the route API Gateway selects for every path the
// routers register is the named function's, so a path added to an area
// cannot silently 404 (or land in another function) in AWS.
func checkArea(t *testing.T, name string, routers []*httpapi.Router, atLeast int) {
	t.Helper()
	n := 0
	for _, r := range routers {
		for _, rt := range r.Routes() {
			n++
			if fn, route := selectRoute(rt.Path); fn != name {
				t.Errorf("%s (router %s) goes to %q through route %q, want the %s function", rt.Path, r.Service(), fn, route, name)
			}
		}
	}
	if n < atLeast {
		t.Fatalf("only %d routes found in the %s area", n, name)
	}
}

// TestProfileAreaRoutedToProfileFunction: every path of the profile area
// reaches the profile function, the uploads' among them (served where the
// deployment stores uploads, as the function does with its bucket), and
// identity and corporate verification, the provider's webhook and the
// support tickets.
func TestProfileAreaRoutedToProfileFunction(t *testing.T) {
	d := areaDeps(t, false)
	files, err := diskstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d.UploadFiles = files
	routers := d.ProfileArea()
	checkArea(t, "profile", routers, 40)
	served := map[string]bool{}
	for _, r := range routers {
		for _, rt := range r.Routes() {
			served[rt.Path] = true
		}
	}
	for _, p := range []string{httpapi.PathUploadImg, httpapi.PathUploadImgAuth, httpapi.PathUploadFile, httpapi.KYCWebhookPath,
		"/fe-ex-api/sumsub/v2/get_level_list", httpapi.PathCorpConfirm, "/fe-ex-api/question/create_problem",
		"/fe-ex-api/user/check_user_cancellation_info"} {
		if !served[p] {
			t.Errorf("the profile area does not serve %s", p)
		}
	}
}

func TestWalletAreaRoutedToWalletFunction(t *testing.T) {
	d := areaDeps(t, false)
	routers, err := d.WalletArea()
	if err != nil {
		t.Fatal(err)
	}
	checkArea(t, "wallet", routers, 60)

	// The simulators' /dev routes exist only in `tenger serve --dev`; the
	// HTTP API must not expose them.
	dev, err := areaDeps(t, true).WalletArea()
	if err != nil {
		t.Fatal(err)
	}
	devPaths := 0
	for _, r := range dev {
		for _, rt := range r.Routes() {
			if strings.HasPrefix(rt.Path, "/dev/") {
				devPaths++
				if fn, route := selectRoute(rt.Path); fn != "" {
					t.Errorf("%s is exposed through %s (%s)", rt.Path, route, fn)
				}
			}
		}
	}
	if devPaths == 0 {
		t.Fatal("no /dev routes found in the dev wallet area")
	}
}

// TestTradeAreaRoutedToTradeFunction: every spot trading path (order entry,
// cancels, queries, fills) reaches the trade function.
func TestTradeAreaRoutedToTradeFunction(t *testing.T) {
	checkArea(t, "trade", areaDeps(t, false).TradeArea(), 8)
}

func TestRouteSelection(t *testing.T) {
	for path, want := range map[string]string{
		"/fe-ex-api/common/rate":                "wallet",  // exact beats /fe-ex-api/common/{proxy+}
		"/fe-ex-api/common/rateV3":              "profile", // not the exact path
		"/fe-ex-api/common/user_info":           "profile",
		"/fe-ex-api/user/update_fee_coin_open":  "wallet",
		"/fe-ex-api/user/login_in":              "profile",
		"/fe-ex-api/v4/common/emailValidCode":   "profile",
		"/fe-ex-api/v4/capital_password/reset":  "wallet",
		"/fe-ex-api/finance/v5/account_balance": "wallet",
		"/bank/v2/withdraw-req":                 "wallet",
		"/graphql":                              "content",
		"/fe-ex-api/order/create":               "trade",
		"/fe-ex-api/order/list/new":             "trade",
		"/fe-ex-api/order/batch":                "trade",
		"/fe-ex-api/trade/list_by_order":        "trade",
		"/fe-ex-api/common/":                    "", // a greedy route needs a segment
		"/fe-ex-api/unknown":                    "",
	} {
		if fn, route := selectRoute(path); fn != want {
			t.Errorf("%s → %q (%s), want %q", path, fn, route, want)
		}
	}
	// Two functions may not declare the same route: the API would reject it.
	seen := map[string]string{}
	for _, f := range apiFunctions {
		for _, r := range f.Routes {
			if other, dup := seen[r]; dup {
				t.Errorf("route %s declared by %s and %s", r, other, f.Name)
			}
			seen[r] = f.Name
		}
	}
}
