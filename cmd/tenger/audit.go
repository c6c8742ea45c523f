package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/store/embedded"
)

// errAuditFailed makes `tenger audit` exit non-zero after printing its report.
var errAuditFailed = errors.New("audit found problems")

// runAudit proves the books of a data directory. First the engine that
// owns the spot balances recovers from its snapshot and journal, handing
// the store projection whatever a stopped or killed server left unwritten,
// and every balance it holds is compared with the store's. Then every
// posting is replayed: each balance, the per-coin sums and that no
// balance is negative. Run it while the server is stopped (the store is
// locked while a server has it open).
func runAudit(args []string) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	problems, err := auditEngine(*data)
	if err != nil {
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
	rep.Problems = append(problems, rep.Problems...)
	rep.Write(os.Stdout)
	if !rep.Clean() {
		return errAuditFailed
	}
	return nil
}

// auditEngine opens the data directory as tenger serve does (the engine
// recovers and its projection catches up), compares the engine's balances
// with the store's, and closes it again.
func auditEngine(data string) ([]string, error) {
	l, err := platform.OpenLocal(data, platform.Config{}, zerolog.Nop())
	if err != nil {
		return nil, err
	}
	defer l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	problems, err := l.Engine.Verify(ctx)
	if err != nil {
		return nil, err
	}
	if len(problems) == 0 {
		fmt.Println("engine and store agree on every spot balance the engine holds")
	}
	return problems, nil
}
