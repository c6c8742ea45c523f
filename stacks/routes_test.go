package stacks

import (
	"strings"
	"testing"

	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/platform"
)

// routeMatches reports whether an API Gateway route path serves path:
// exactly, or as a greedy "{proxy+}" prefix.
func routeMatches(route, path string) bool {
	if prefix, ok := strings.CutSuffix(route, "{proxy+}"); ok {
		return strings.HasPrefix(path, prefix) && len(path) > len(prefix)
	}
	return route == path
}

// TestProfileAreaRoutedToProfileFunction: every route the profile area's
// routers register reaches the profile function through the HTTP API, so a
// path added to an area cannot silently 404 in AWS.
func TestProfileAreaRoutedToProfileFunction(t *testing.T) {
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Coins: cc, Markets: markets.Defaults()}
	var profile apiFunction
	for _, f := range apiFunctions {
		if f.Name == "profile" {
			profile = f
		}
	}
	n := 0
	for _, r := range d.ProfileArea() {
		for _, rt := range r.Routes() {
			n++
			ok := false
			for _, route := range profile.Routes {
				ok = ok || routeMatches(route, rt.Path)
			}
			if !ok {
				t.Errorf("%s (router %s) is not routed to the profile function", rt.Path, r.Service())
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d routes found in the profile area", n)
	}
}
