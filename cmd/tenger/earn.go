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
tenger earn [--data DIR] staking list | staking set FILE
    locked staking products; FILE: {"id": "usdt-30", "coin": "USDT", "names": {...}, "termDays": 30,
      "apr": "8", "payout": "maturity" | "daily", "minAmount": "10", "maxPerUser": "50000",
      "totalCap": "5000000", "open": true, "sort": 1}   (caps 0: none; coin and term fixed once set)
tenger earn [--data DIR] launchpad list | launchpad set FILE | launchpad settle ID
    launchpad sales; FILE: {"id": "ton-launch", "names": {...}, "descriptions": {...},
      "token": "TON", "commitCoin": "USDT", "price": "2.2", "tokensOffered": "10000",
      "maxPerUser": "2000", "minCommit": "10", "subscribeStart": MS, "subscribeEnd": MS,
      "distributeAt": MS}   (Unix ms; after the subscription starts only names and descriptions change)
    settle allocates and distributes a sale past its distribution time (the run does it too)
tenger earn [--data DIR] loans show | loans set FILE
    crypto loans' settings (JSON as show prints them): coins to borrow with hourly rates in percent
    per term ("7", "14", "30", "90"), minimum and maximum; collateral coins; initialLTV,
    marginCallLTV, liquidationLTV (fractions, rising, below 1); graceHours; overdueMultiplier;
    liquidationFee (a fraction of the sale's proceeds); every loan is rechecked at the next run
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
	area := ""
	if len(rest) > 0 {
		area = rest[0]
	}
	known := area == "savings" || area == "staking" || area == "launchpad" || area == "loans"
	switch {
	case cmd == "run", cmd == "loans show", known && area != "loans" && len(rest) == 2 && rest[1] == "list", known && len(rest) == 3 && rest[1] == "set",
		area == "launchpad" && len(rest) == 3 && rest[1] == "settle":
	default:
		fs.Usage()
		return fmt.Errorf("earn: bad command %q", cmd)
	}
	ctx := context.Background()
	if cmd == "run" || area == "launchpad" && rest[1] == "settle" {
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
		if cmd != "run" {
			n, err := l.Earn().SettleLaunch(ctx, rest[2])
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "launchpad %s settled: %d participants paid now\n", rest[2], n)
			return nil
		}
		resumed, rerr := l.Earn().Resume(ctx)
		rep, err := l.Earn().RunDue(ctx)
		fmt.Fprintf(out, "earn run: %d savings positions and %d stakes due, %d days settled, %d auto-subscriptions, %d sales distributed, %d interrupted ops finished\n",
			rep.Positions, rep.Stakes, rep.Settled, rep.AutoSubscribed, rep.Launchpads, resumed)
		if rerr != nil {
			return rerr
		}
		return err
	}
	var p earn.SavingsProduct
	var sp earn.StakingProduct
	var lp earn.LaunchProject
	var lc earn.LoanConfig
	if rest[1] == "set" {
		// The file is read (and refused) before the store is opened.
		var target any = &p
		switch area {
		case "staking":
			target = &sp
		case "launchpad":
			target = &lp
		case "loans":
			target = &lc
		}
		if err := readJSONFile(rest[2], in, target); err != nil {
			return fmt.Errorf("%s %s: %w", area, rest[2], err)
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
	switch {
	case area == "savings" && rest[1] == "set":
		if err := svc.PutSavingsProduct(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(out, "savings product %s (%s) saved: %s%% per year\n", p.ID, p.Coin, p.YearRate().StringFixed(2))
		return nil
	case area == "staking" && rest[1] == "set":
		if err := svc.PutStakingProduct(ctx, sp); err != nil {
			return err
		}
		fmt.Fprintf(out, "staking product %s (%s, %d days, %s%% per year, paid %s) saved\n", sp.ID, sp.Coin, sp.TermDays, sp.APR.StringFixed(2), sp.Payout)
		return nil
	case area == "launchpad" && rest[1] == "set":
		if err := svc.PutLaunchProject(ctx, lp); err != nil {
			return err
		}
		fmt.Fprintf(out, "launchpad %s saved: %s %s at %s %s\n", lp.ID, lp.TokensOffered, lp.Token, lp.Price, lp.CommitCoin)
		return nil
	case area == "loans" && rest[1] == "set":
		if err := svc.PutLoanConfig(ctx, lc); err != nil {
			return err
		}
		fmt.Fprintf(out, "loan settings saved: LTV %s / %s / %s, %d loan coins, %d collaterals\n", lc.InitialLTV, lc.MarginCallLTV, lc.LiquidationLTV,
			len(lc.LoanCoins), len(lc.Collaterals))
		return nil
	case area == "loans":
		c, err := svc.LoanSettings(ctx)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	case area == "staking":
		return listStaking(ctx, out, svc)
	case area == "launchpad":
		return listLaunchpad(ctx, out, svc)
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

// readJSONFile decodes FILE ("-": in) into v, refusing unknown fields.
func readJSONFile(name string, in io.Reader, v any) error {
	r := in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func listStaking(ctx context.Context, out io.Writer, svc *earn.Service) error {
	list, err := svc.StakingProjects(ctx, earn.LangEN)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tCOIN\tDAYS\tAPR %\tPAYOUT\tMIN\tPER USER\tTOTAL CAP\tSTAKED\tOPEN")
	for _, x := range list {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%v\n", x.ID, x.CoinSymbol, x.TermDays, x.APR, x.Payout, x.MinAmount,
			orNone(x.MaxPerUser), orNone(x.TotalCap), x.Staked, x.Open)
	}
	return w.Flush()
}

func listLaunchpad(ctx context.Context, out io.Writer, svc *earn.Service) error {
	list, err := svc.LaunchList(ctx, earn.LangEN)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tTOKEN\tPRICE\tOFFERED\tPER USER\tPHASE\tCOMMITTED\tCOMMITMENTS\tDISTRIBUTION (UTC)")
	for _, x := range list {
		fmt.Fprintf(w, "%s\t%s\t%s %s\t%s\t%s\t%s\t%s\t%d\t%s\n", x.ID, x.Token, x.Price, x.CommitCoin, x.TokensOffered, orNone(x.MaxPerUser),
			x.Phase, x.TotalCommitted, x.Participants, utcTime(x.DistributeAt))
	}
	return w.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
