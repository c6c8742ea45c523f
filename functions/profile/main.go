// Command profile is the Lambda function behind the HTTP API's profile
// routes (/fe-ex-api/user/*, /fe-ex-api/common/*, /fe-ex-api/v4/common/*,
// /fe-ex-api/security/*): sign-up, sign-in, sessions and security settings;
// also the market lists and the market data calls (/fe-ex-api/market/*),
// read from what the engine task stores in the table, each pair reloaded
// when a call finds it more than a second old (platform.Deps.MarketReader).
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"net/http"

	"tenger/functions/internal/httpfn"
	"tenger/internal/platform"
)

func main() {
	httpfn.Serve("profile", func(d *platform.Deps) (http.Handler, error) { return newHandler(d), nil })
}
