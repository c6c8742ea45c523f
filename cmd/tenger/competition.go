package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/competition"
	"tenger/internal/platform"
)

// runCompetition is the operator's side of the futures trading
// competition: defining competitions, looking at them, paying their prizes.
func runCompetition(args []string) error { return competitionCommand(os.Stdout, args) }

const competitionUsage = `tenger competition [--data DIR] create FILE
    create the competition FILE defines, or change the one of its id: anything before its start,
    only its names and descriptions after (FILE is JSON, "-" for standard input):
      {"id": "2026-12", "names": {"en_US": "December cup", "mn_MN": "12-р сарын тэмцээн"},
       "descriptions": {"en_US": "...", "mn_MN": "..."},
       "start": "2026-12-01T00:00:00Z", "end": "2026-12-31T00:00:00Z",  (RFC 3339, or Unix ms)
       "coin": "USDT",
       "prizes": [{"from": 1, "to": 1, "amount": "1000"}, {"from": 2, "to": 2, "amount": "500"},
                  {"from": 3, "to": 10, "amount": "100"}],
       "rules": {"minBalance": "100", "kycLevel": 1, "mobile": true, "futuresAccount": true}}
    rules.minBalance is required; kycLevel, mobile and futuresAccount default to the values shown
tenger competition [--data DIR] list
    every competition: its times, state, participants and prize pool
tenger competition [--data DIR] [--top N] show ID
    one competition in full, its best N ranks (default 20) with the users' ids, and its winners
tenger competition [--data DIR] settle ID
    pay an ended competition's prizes into the winners' spot accounts (from the treasury account
    SYS/treasury/competition): the final ranking is worked out first if it was not yet; a settle
    that stopped part-way is finished without paying anyone twice (tenger serve does the same by
    itself within a minute of the end)

Locally the command opens the data directory's store: stop tenger serve first.
`

// competitionFile is the operator's file: a definition with times as RFC
// 3339 or Unix ms and rules that default to the specification's.
type competitionFile struct {
	ID           string              `json:"id"`
	Names        map[string]string   `json:"names"`
	Descriptions map[string]string   `json:"descriptions"`
	Start        fileTime            `json:"start"`
	End          fileTime            `json:"end"`
	Coin         string              `json:"coin"`
	Prizes       []competition.Prize `json:"prizes"`
	Rules        struct {
		KYCLevel       *int             `json:"kycLevel"`
		Mobile         *bool            `json:"mobile"`
		MinBalance     *decimal.Decimal `json:"minBalance"`
		FuturesAccount *bool            `json:"futuresAccount"`
	} `json:"rules"`
}

// fileTime is a time as RFC 3339 text or Unix ms.
type fileTime int64

func (t *fileTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return fmt.Errorf("time %q: RFC 3339 (2026-12-01T00:00:00Z) or Unix ms", s)
		}
		*t = fileTime(at.UnixMilli())
		return nil
	}
	ms, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("time %s: RFC 3339 (2026-12-01T00:00:00Z) or Unix ms", b)
	}
	*t = fileTime(ms)
	return nil
}

func readCompetitionFile(path string, stdin io.Reader) (competition.Definition, error) {
	var raw []byte
	var err error
	if path == "-" {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(path)
	}
	if err != nil {
		return competition.Definition{}, err
	}
	var f competitionFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return competition.Definition{}, fmt.Errorf("%s: %w", path, err)
	}
	if f.Rules.MinBalance == nil {
		return competition.Definition{}, fmt.Errorf("%s: rules.minBalance is required (the least futures margin balance to join)", path)
	}
	r := competition.DefaultRules(*f.Rules.MinBalance)
	if f.Rules.KYCLevel != nil {
		r.KYCLevel = *f.Rules.KYCLevel
	}
	if f.Rules.Mobile != nil {
		r.Mobile = *f.Rules.Mobile
	}
	if f.Rules.FuturesAccount != nil {
		r.FuturesAccount = *f.Rules.FuturesAccount
	}
	return competition.Definition{ID: f.ID, Names: f.Names, Descriptions: f.Descriptions, Start: int64(f.Start), End: int64(f.End),
		Coin: f.Coin, Prizes: f.Prizes, Rules: r}, nil
}

func competitionCommand(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("competition", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	top := fs.Int("top", 20, "with show: how many ranks to list")
	fs.Usage = func() { fmt.Fprint(fs.Output(), competitionUsage) }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	cmd := ""
	if len(rest) > 0 {
		cmd = rest[0]
	}
	switch {
	case cmd == "list" && len(rest) == 1, cmd == "create" && len(rest) == 2, cmd == "show" && len(rest) == 2, cmd == "settle" && len(rest) == 2:
	default:
		fs.Usage()
		return fmt.Errorf("competition: bad command %q", strings.Join(rest, " "))
	}
	var def competition.Definition
	if cmd == "create" {
		// The file is read (and refused) before the store is opened.
		if def, err = readCompetitionFile(rest[1], os.Stdin); err != nil {
			return err
		}
	}
	ctx := context.Background()
	if cmd == "settle" {
		// Prizes are credited to spot balances, which the engine owns: the
		// data directory opens as tenger serve opens it (the engine
		// recovers), and closes again.
		if _, err := os.Stat(filepath.Join(*data, "store")); err != nil {
			return fmt.Errorf("no store in %s (is --data right?): %w", *data, err)
		}
		l, err := platform.OpenLocal(*data, platform.Config{}, zerolog.Nop())
		if err != nil {
			return fmt.Errorf("the data directory %s is in use or unreadable (stop tenger serve first): %w", *data, err)
		}
		defer l.Close()
		st, err := l.Competition().Settle(ctx, rest[1])
		if err != nil {
			return opsErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "RANK\tUSER\tPRIZE")
		for _, x := range st.Winners {
			fmt.Fprintf(w, "%d\t%s\t%s\n", x.Rank, x.UID, x.Amount)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "competition %s settled at %s: %d prizes, %s paid (final ranking %s)\n", st.CompetitionID,
			utcTime(st.SettledAt), len(st.Winners), st.Total, utcTime(st.FinalAt))
		return nil
	}
	ops, err := openOps(*data)
	if err != nil {
		return err
	}
	defer ops.Close()
	svc := competition.New(competition.Options{Store: ops.store, Log: zerolog.Nop()})
	switch cmd {
	case "create":
		c, created, err := svc.Put(ctx, def)
		if err != nil {
			return opsErr(err)
		}
		verb := "updated"
		if created {
			verb = "created"
		}
		fmt.Fprintf(out, "competition %s %s: %s to %s UTC, prize pool %s %s\n", c.ID, verb, utcTime(c.Start), utcTime(c.End),
			c.PrizePool(), c.Coin)
		return nil
	case "list":
		list, err := svc.List(ctx)
		if err != nil {
			return opsErr(err)
		}
		now := time.Now()
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSTART (UTC)\tEND (UTC)\tSTATE\tPARTICIPANTS\tPRIZE POOL\tNAME")
		for _, c := range list {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s %s\t%s\n", c.ID, utcTime(c.Start), utcTime(c.End), c.State(now), c.Participants,
				c.PrizePool(), c.Coin, c.Name(competition.LangEN))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d competitions\n", len(list))
		return nil
	default: // show
		c, err := svc.Get(ctx, rest[1])
		if err != nil {
			return opsErr(err)
		}
		ranks, err := svc.OperatorRanks(ctx, c.ID, *top)
		if err != nil {
			return opsErr(err)
		}
		win, finalAt, final, err := svc.Winners(ctx, c.ID)
		if err != nil {
			return opsErr(err)
		}
		printCompetition(out, c, ranks, win, finalAt, final)
		return nil
	}
}

func printCompetition(out io.Writer, c competition.Competition, ranks []competition.OperatorRank, win []competition.Winner, finalAt int64, final bool) {
	fmt.Fprintf(out, "competition %s  %s\n", c.ID, c.State(time.Now()))
	langs := make([]string, 0, len(c.Names))
	for l := range c.Names {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		fmt.Fprintf(out, "name %s: %s\n", l, c.Names[l])
	}
	for _, l := range langs {
		if d := c.Descriptions[l]; d != "" {
			fmt.Fprintf(out, "description %s: %s\n", l, d)
		}
	}
	fmt.Fprintf(out, "from %s to %s UTC, in %s\n", utcTime(c.Start), utcTime(c.End), c.Coin)
	fmt.Fprintf(out, "rules: KYC level %d, mobile %v, futures account %v, margin balance at least %s %s\n", c.Rules.KYCLevel,
		c.Rules.Mobile, c.Rules.FuturesAccount, c.Rules.MinBalance, c.Coin)
	for _, p := range c.Prizes {
		ranks := strconv.Itoa(p.From)
		if p.To != p.From {
			ranks += "-" + strconv.Itoa(p.To)
		}
		fmt.Fprintf(out, "prize rank %s: %s %s each\n", ranks, p.Amount, c.Coin)
	}
	fmt.Fprintf(out, "prize pool %s %s; %d participants; ranked %s\n", c.PrizePool(), c.Coin, c.Participants, utcTime(c.RefreshedAt))
	if len(ranks) > 0 {
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "RANK\tUSER\tNICK\tROI %\tPROFIT\tEQUITY\tINITIAL")
		for _, r := range ranks {
			roi := "-"
			if r.Ranked {
				roi = competition.ROIPercent(r.ROI)
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Rank, r.UID, r.Nick, roi, r.Profit, r.Equity, r.Initial)
		}
		_ = w.Flush()
	}
	if final {
		fmt.Fprintf(out, "final ranking %s: %d winners\n", utcTime(finalAt), len(win))
		for _, x := range win {
			fmt.Fprintf(out, "  rank %d  user %s  %s %s\n", x.Rank, x.UID, x.Amount, c.Coin)
		}
	}
	if c.SettledAt > 0 {
		fmt.Fprintf(out, "settled %s: %s %s paid\n", utcTime(c.SettledAt), c.Paid, c.Coin)
	}
}
