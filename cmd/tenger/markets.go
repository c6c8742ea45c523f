package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"tenger/internal/markets"
	"tenger/internal/platform"
)

// runMarkets lists the trading pairs, installs a new catalogue in a data
// directory (a running tenger serve opens the new pairs within seconds), or
// publishes one to the AWS runtime's table.
func runMarkets(args []string) error {
	fs := flag.NewFlagSet("markets", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger markets [--data DIR] list
tenger markets [--data DIR] apply FILE
    validate FILE (a JSON list of pairs, as DIR/markets.json) and install it as DIR/markets.json;
    a running tenger serve opens added pairs within seconds. Pairs may be added, closed
    ("closed": true), reopened, re-sorted or re-labelled, never removed or re-gridded.
tenger markets publish FILE
    the same for the AWS runtime: writes the catalogue item to $TABLE_NAME (AWS credentials
    from the environment; $DYNAMODB_ENDPOINT for DynamoDB Local); every function and the
    engine pick it up within a minute.
`)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	switch {
	case len(rest) == 1 && rest[0] == "list":
		cat, err := markets.Load(*data)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(os.Stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "SYMBOL\tPAIR\tTICK\tLOT\tMIN QTY\tMIN NOTIONAL")
		for _, p := range cat.List() {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Symbol, p.Name(), p.PriceTick, p.LotSize, p.MinQty, p.MinNotional)
		}
		return w.Flush()
	case len(rest) == 2 && rest[0] == "apply":
		return applyMarkets(*data, rest[1])
	case len(rest) == 2 && rest[0] == "publish":
		text, err := os.ReadFile(rest[1])
		if err != nil {
			return err
		}
		ctx := context.Background()
		d, err := platform.NewAWS(ctx, zerolog.Nop())
		if err != nil {
			return err
		}
		if err := markets.Publish(ctx, d.Store, text); err != nil {
			return err
		}
		fmt.Println("published")
		return nil
	default:
		fs.Usage()
		return errors.New("markets: expected list, apply FILE or publish FILE")
	}
}

// applyMarkets checks the file against the data directory's catalogue and
// replaces DIR/markets.json atomically (write, sync, rename), so a watcher
// never reads half a file.
func applyMarkets(dir, file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	tmpDir, err := os.MkdirTemp("", "tenger-markets")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpDir)
	if err := os.WriteFile(filepath.Join(tmpDir, markets.FileName), text, 0o600); err != nil {
		return err
	}
	next, err := markets.Load(tmpDir)
	if err != nil {
		return err
	}
	cur, err := markets.Load(dir)
	if err != nil {
		return err
	}
	opened, err := cur.Replace(next)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	dst := filepath.Join(dir, markets.FileName)
	f, err := os.CreateTemp(dir, markets.FileName+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), dst); err != nil {
		return err
	}
	for _, p := range opened {
		fmt.Printf("opens %s (%s)\n", p.Symbol, p.Name())
	}
	fmt.Printf("saved to %s\n", dst)
	return nil
}
