package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/earn"
	"tenger/internal/platform"
)

// runEarn is the operator's side of earn: the savings products and the
// daily settlement.
func runEarn(args []string) error { return earnCommand(os.Stdout, os.Stdin, args) }

const earnUsage = `tenger earn [--data DIR] savings list
    the flexible savings products: coin, rate per period and per year, tiers, minimum, cap, open
tenger earn [--data DIR] savings set FILE
    create or change the savings product FILE defines (JSON, "-" for standard input); one
    product per coin, its coin fixed once set:
      {"id": "usdt", "coin": "USDT", "names": {"en_US": "USDT Flexible", "mn_MN": "USDT уян хатан"},
       "period": "yearly", "rate": "6.5",                  (percent per period: daily, weekly, monthly, yearly)
       "tiers": [{"upTo": "10000", "rate": "6.5"}, {"rate": "3"}],   (optional; the last has no upTo)
       "minAmount": "1", "maxPerUser": "1000000", "open": true, "sort": 1}
    a closed product takes no new subscriptions; holdings keep earning and can be redeemed
tenger earn [--data DIR] run
    the daily settlement now (tenger serve runs it every minute): every day before today not
    yet settled is paid, standard redemptions paid out, auto-subscriptions made; interrupted
    subscriptions and redemptions finished
`

func earnCommand(out io.Writer, in io.Reader, args []string) error {
	fs := flag.NewFlagSet("earn", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), earnUsage) }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	cmd := strings.Join(rest, " ")
	switch {
	case cmd == "savings list", cmd == "run", len(rest) == 3 && rest[0] == "savings" && rest[1] == "set":
	default:
		fs.Usage()
		return fmt.Errorf("earn: bad command %q", cmd)
	}
	ctx := context.Background()
	if cmd == "run" {
		// Payouts and auto-subscriptions move spot balances, which the
		// engine owns: the data directory opens as tenger serve opens it.
		if _, err := os.Stat(filepath.Join(*data, "store")); err != nil {
			return fmt.Errorf("no store in %s (is --data right?): %w", *data, err)
		}
		l, err := platform.OpenLocal(*data, platform.Config{}, zerolog.Nop())
		if err != nil {
			return fmt.Errorf("the data directory %s is in use or unreadable (stop tenger serve first): %w", *data, err)
		}
		defer l.Close()
		resumed, rerr := l.Earn().Resume(ctx)
		rep, err := l.Earn().RunDue(ctx)
		fmt.Fprintf(out, "savings run: %d positions due, %d days settled, %d auto-subscriptions, %d interrupted ops finished\n",
			rep.Positions, rep.Settled, rep.AutoSubscribed, resumed)
		if rerr != nil {
			return rerr
		}
		return err
	}
	var p earn.SavingsProduct
	if rest[1] == "set" {
		// The file is read (and refused) before the store is opened.
		var r io.Reader = in
		if rest[2] != "-" {
			f, err := os.Open(rest[2])
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		dec := json.NewDecoder(r)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return fmt.Errorf("savings product %s: %w", rest[2], err)
		}
	}
	cat, err := coins.Load(*data)
	if err != nil {
		return err
	}
	ops, err := openOps(*data)
	if err != nil {
		return err
	}
	defer ops.Close()
	svc := earn.New(earn.Options{Store: ops.store, Coins: cat, Log: zerolog.Nop()})
	if rest[1] == "set" {
		if err := svc.PutSavingsProduct(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(out, "savings product %s (%s) saved: %s%% per year\n", p.ID, p.Coin, p.YearRate().StringFixed(2))
		return nil
	}
	list, err := svc.Projects(ctx, earn.LangEN)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tCOIN\tPERIOD\tRATE %\tPER YEAR %\tTIERS\tMIN\tCAP\tOPEN")
	for _, x := range list {
		tiers := "-"
		if len(x.Tiers) > 0 {
			var parts []string
			for _, t := range x.Tiers {
				upTo := t.UpTo
				if upTo == "" {
					upTo = "rest"
				}
				parts = append(parts, upTo+"@"+t.Rate)
			}
			tiers = strings.Join(parts, ",")
		}
		capText := x.MaxPerUser
		if capText == "" {
			capText = "none"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%v\n", x.ID, x.CoinSymbol, x.Period, x.Rate, x.YearRate, tiers, x.MinAmount, capText, x.Open)
	}
	return w.Flush()
}
