// Command openapi is the Lambda function behind the HTTP API's
// Binance-compatible routes (/api/v3/*, /sapi/*, /fapi/*, /dapi/*): the
// public market data bots and CCXT read, and the endpoints signed with an
// API key (account, order entry, cancels, order queries, deposit addresses
// and withdrawals). It serves the same internal/binance server `tenger
// serve` mounts on those prefixes. Orders, cancels and withdrawal holds are
// commands to the engine task over its private endpoint in the VPC
// (platform.RemoteEngine, signed with the key of $ENGINE_KEY_SECRET_ARN);
// a withdrawal's update is posted to the user's WebSocket connections
// ($WS_ENDPOINT), as the wallet function posts the web's. API keys' HMAC secrets are sealed with the auth
// key ($AUTH_KEY_SECRET_ARN), which the profile function seals them with
// when a key is created; every signed request reads its key from the table
// (no cache in AWS), so a deleted key stops at once in every instance.
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"tenger/functions/internal/httpfn"
)

func main() { httpfn.Serve("openapi", newHandler) }
