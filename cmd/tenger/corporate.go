package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/corporate"
	"tenger/internal/platform"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// runCorporate is the operator's review of corporate verification until
// an operator console exists: the applications waiting, one in full, and
// the decision.
func runCorporate(args []string) error { return corporateCommand(os.Stdout, args) }

// corpReasons collects the repeated --reason flag.
type corpReasons []string

func (r *corpReasons) String() string { return strings.Join(*r, "; ") }

// Set adds one reason.
func (r *corpReasons) Set(v string) error { *r = append(*r, v); return nil }

func corporateCommand(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("corporate", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	aws := fs.Bool("aws", false, "the AWS runtime's table ($TABLE_NAME, AWS credentials from the environment)")
	status := fs.String("status", corporate.StatusPending, "with list: draft, pending, approved or rejected")
	as := fs.String("as", os.Getenv("USER"), "with approve and reject: the reviewer's name, kept in the application's history")
	var reasons corpReasons
	fs.Var(&reasons, "reason", "with reject: a reason the user is shown (repeat for several)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger corporate [--data DIR | --aws] [--status pending|draft|approved|rejected] list
    the applications in a state (default pending: the review queue), the longest waiting first
tenger corporate [--data DIR | --aws] show UID
    an application in full (JSON): its five steps, state, reasons and history
tenger corporate [--data DIR | --aws] [--as NAME] approve UID
    approve a pending application: the user becomes an enterprise account in the same write
tenger corporate [--data DIR | --aws] [--as NAME] reject UID --reason TEXT [--reason TEXT ...]
    reject a pending application; the user sees the reasons, edits it and submits it again
`)
	}
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	cmd := ""
	if len(rest) > 0 {
		cmd = rest[0]
	}
	switch {
	case cmd == "list" && len(rest) == 1, (cmd == "show" || cmd == "approve" || cmd == "reject") && len(rest) == 2:
	default:
		fs.Usage()
		return fmt.Errorf("corporate: expected list, show UID, approve UID or reject UID --reason TEXT (got %q)", strings.Join(rest, " "))
	}
	if cmd == "reject" && len(reasons) == 0 {
		return errors.New("corporate: reject needs at least one --reason, which the user is shown")
	}
	ctx := context.Background()
	st, accounts, closeStore, err := openCorporateStore(ctx, *data, *aws)
	if err != nil {
		return err
	}
	defer closeStore()
	svc := corporate.New(corporate.Options{Store: st, Accounts: accounts, Log: zerolog.Nop()})
	switch cmd {
	case "list":
		list, err := svc.List(ctx, *status)
		if err != nil {
			return corpErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "UID\tSTATUS\tSINCE (UTC)\tENTITY\tREG. NO\tCOUNTRY\tPEOPLE\tFILES")
		for _, a := range list {
			entity, regNo, country := "-", "-", "-"
			if c := a.Company; c != nil {
				entity, regNo, country = orDash(c.EntityName), orDash(c.RegistrationNumber), orDash(c.RegisteredCountry)
			}
			people, files := 0, 0
			if a.People != nil {
				people = len(a.People.People)
			}
			if a.Documents != nil {
				files = len(a.Documents.Files)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", a.UserID, a.Status, corpTime(a.StatusAt), entity, regNo, country, people, files)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d %s applications\n", len(list), *status)
		return nil
	case "show":
		a, err := svc.Application(ctx, rest[1])
		if err != nil {
			return corpErr(err)
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	case "approve":
		a, err := svc.Approve(ctx, rest[1], *as)
		if err != nil {
			return corpErr(err)
		}
		fmt.Fprintf(out, "approved %s (%s): the account is now an enterprise account\n", a.UserID, entityOf(a))
		return nil
	default: // reject
		a, err := svc.Reject(ctx, rest[1], *as, reasons)
		if err != nil {
			return corpErr(err)
		}
		fmt.Fprintf(out, "rejected %s (%s); the user is shown:\n", a.UserID, entityOf(a))
		for _, r := range a.Reasons {
			fmt.Fprintf(out, "  - %s\n", r)
		}
		return nil
	}
}

// parseInterleaved parses fs's flags wherever they stand among the
// positional arguments ("reject UID --reason TEXT" as well as
// "--reason TEXT reject UID"), which flag.Parse alone stops at, and
// returns the positional ones in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// openCorporateStore opens the store the review runs on: the data
// directory's embedded store (which admits one process, so a running
// tenger serve keeps it, and the command says so), or with aws the AWS
// runtime's table. It returns the accounts service on the same store.
func openCorporateStore(ctx context.Context, data string, aws bool) (store.Store, corporate.Accounts, func(), error) {
	if aws {
		d, err := platform.NewAWS(ctx, zerolog.Nop())
		if err != nil {
			return nil, nil, nil, err
		}
		return d.Store, d.Auth(), func() { _ = d.Close() }, nil
	}
	dir := filepath.Join(data, "store")
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, nil, fmt.Errorf("no store in %s (is --data right?): %w", data, err)
	}
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the data directory %s is in use or unreadable (stop tenger serve first): %w", data, err)
	}
	return st, auth.New(auth.Options{Store: st, Log: zerolog.Nop()}), func() { _ = st.Close() }, nil
}

// corpErr words a catalogue error for the terminal.
func corpErr(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Entry.Code != apperr.CodeInternal {
		return fmt.Errorf("corporate: %s", ae.Message(apperr.LangEN))
	}
	return err
}

func entityOf(a corporate.Application) string {
	if a.Company == nil || a.Company.EntityName == "" {
		return "no entity name"
	}
	return a.Company.EntityName
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func corpTime(ms int64) string {
	if ms == 0 {
		return "-"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04")
}
