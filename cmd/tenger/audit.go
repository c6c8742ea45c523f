package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"

	"tenger/internal/ledger"
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
	rep, err := ledger.New(st, nil).Audit(context.Background())
	if err != nil {
		return err
	}
	rep.Write(os.Stdout)
	if !rep.Clean() {
		return errAuditFailed
	}
	return nil
}
