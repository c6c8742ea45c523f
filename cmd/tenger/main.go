// Command tenger is the local all-in-one Tenger binary: `tenger serve` runs
// every service, the engine and the simulators in one process on an embedded
// store; other subcommands operate on the same data directory.
package main

import (
	"fmt"
	"os"
)

const usage = `tenger: the Tenger exchange in one binary

Usage:
  tenger serve [--addr HOST:PORT] [--data DIR] [--dev] [--web DIR]
      run every service on one HTTP server (default http://127.0.0.1:8080, data in ./.tenger-data)
  tenger audit [--data DIR]
      prove the books: every balance matches its postings, each coin's accounts sum to its
      net external flow, no balance is negative (exit 0 when clean; run with the server stopped)
  tenger coins [--data DIR] list | set SYMBOL CHAIN FIELD VALUE
      show the coin and chain catalogue, or change one setting (fees, limits, open flags,
      confirmations ...) in the operator file DIR/coins.json
  tenger markets [--data DIR] list | apply FILE | publish FILE
      show the trading pairs, or install a new pair catalogue: in DIR/markets.json (a running
      server opens added pairs within seconds) or, with publish, in the AWS runtime's table
  tenger prices [--data DIR | --aws] list | pin INDEX PRICE | unpin INDEX
      show the reference prices that limits and valuations use, or pin one (DIR/prices.json,
      read by a running server within 5 s; with --aws, the table's pins item)
  tenger bench [--target URL] [--users N] [--orders N] [--concurrency N] [--symbol S]
      end-to-end load: crossing limit orders over HTTP keep-alive against a running
      tenger serve --dev (best with --market-maker=false); reports orders/s accepted,
      acknowledgement latency percentiles and matched-and-settled throughput
  tenger bench --ceiling [--orders N] [--concurrency N]
      the same order calls against a server that only answers them: the most this load
      generator can reach on this machine, and the HTTP server's own CPU per call
  tenger replay-stream --queue-url URL --function NAME [--dry-run]
      AWS: replay the table-stream batches a function gave up on (the pointers in its failure
      queue; the stream keeps the records 24 hours) into the function, with your credentials
  tenger support [--data DIR] list | show ID | reply ID TEXT | close ID
      the help desk: the tickets users open, answered and closed by support (server stopped)
  tenger account [--data DIR] review | show UID | reopen UID
      cancelled accounts: those that received money after the cancellation, and reopening one
      for its identified owner (server stopped)
  tenger corporate [--data DIR | --aws] list | show UID | approve UID | reject UID --reason TEXT
      review corporate verification: the applications waiting, one in full, and the decision
      (approval makes the user an enterprise account; server stopped, or the table with --aws)
  tenger kyc [--data DIR | --aws] list | show UID | approve UID | reject UID | limits [set] | levels add NAME
      identity verification: the users waiting for a decision, an applicant's history, an
      operator's approval or rejection, and the levels' 24 h withdrawal limits (server stopped)
  tenger p2p [--data DIR] appeals list | appeals show ORDER | appeals decide ORDER release|refund
  tenger p2p [--data DIR] merchants decide UID approve|refuse
      P2P: the orders in appeal, one with its chat, the decision (the escrow to the buyer or
      back to the seller), and merchant applications (server stopped)
  tenger competition [--data DIR] create FILE | list | show ID | settle ID
      the futures trading competition: define one (or change it before its start), list them,
      one with its ranking and winners, and pay an ended one's prizes (server stopped)
  tenger earn [--data DIR] savings|staking|launchpad list | savings|staking|launchpad set FILE
  tenger earn [--data DIR] launchpad settle ID | loans show | loans set FILE | run
      earn: the savings and staking products, the launchpad sales, a sale's distribution and
      the daily settlement run by hand (server stopped; tenger serve runs it every minute)
  tenger version
      print the version

Run "tenger <command> -h" for the flags of a command.
`

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = runServe(os.Args[2:])
	case "audit":
		err = runAudit(os.Args[2:])
	case "coins":
		err = runCoins(os.Args[2:])
	case "markets":
		err = runMarkets(os.Args[2:])
	case "prices":
		err = runPrices(os.Args[2:])
	case "bench":
		err = runBench(os.Args[2:])
	case "replay-stream":
		err = runReplayStream(os.Args[2:])
	case "support":
		err = runSupport(os.Args[2:])
	case "account":
		err = runAccount(os.Args[2:])
	case "corporate":
		err = runCorporate(os.Args[2:])
	case "kyc":
		err = runKYC(os.Args[2:])
	case "p2p":
		err = runP2P(os.Args[2:])
	case "competition":
		err = runCompetition(os.Args[2:])
	case "earn":
		err = runEarn(os.Args[2:])
	case "version":
		fmt.Println(version)
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "tenger: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tenger:", err)
		os.Exit(1)
	}
}
