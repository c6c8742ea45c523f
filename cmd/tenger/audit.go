package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"

	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

// errAuditFailed makes `tenger audit` exit non-zero after printing its report.
var errAuditFailed = errors.New("audit found problems")

// runAudit proves the books of a data directory: it replays every posting
// and checks each balance, the per-coin sums and that no balance is
// negative. Run it while the server is stopped (the store is locked while
// a server has it open).
func runAudit(args []string) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := embedded.Open(filepath.Join(*data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		return err
	}
	defer st.Close()
	// Every coin of the catalogue and of the trading pairs is audited, not
	// only the coins that appear in postings.
	cat, err := coins.Load(*data)
	if err != nil {
		return err
	}
	mk, err := markets.Load(*data)
	if err != nil {
		return err
	}
	var list []string
	for _, c := range cat.List() {
		list = append(list, c.Symbol)
	}
	for _, p := range mk.List() {
		list = append(list, p.Base, p.Quote)
	}
	rep, err := ledger.New(st, nil).Audit(context.Background(), list...)
	if err != nil {
		return err
	}
	rep.Write(os.Stdout)
	if !rep.Clean() {
		return errAuditFailed
	}
	return nil
}
