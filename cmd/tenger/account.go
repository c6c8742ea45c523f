package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/account"
)

// runAccount is the operator's side of cancelled accounts.
func runAccount(args []string) error { return accountCommand(os.Stdout, args) }

func accountCommand(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("account", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	all := fs.Bool("all", false, "with review: every cancelled account, not only those holding money")
	note := fs.String("note", "", "with reopen: why (kept on the cancellation record), e.g. how the owner was identified")
	as := fs.String("as", os.Getenv("USER"), "with reopen: the operator's name, kept on the cancellation record")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger account [--data DIR] [--all] review
    the cancelled accounts holding money: deposits that arrived after the cancellation are
    credited and held there until the account is reopened (with --all every cancelled account)
tenger account [--data DIR] show UID
    an account's cancellation (when, why, API keys deleted, records kept until) and balances
tenger account [--data DIR] [--as NAME] [--note TEXT] reopen UID
    reopen a cancelled account once its owner is identified: they sign in with their password
    (every old session stays ended, deleted API keys are not restored) and can withdraw
`)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	switch {
	case len(rest) == 1 && rest[0] == "review", len(rest) == 2 && (rest[0] == "show" || rest[0] == "reopen"):
	default:
		fs.Usage()
		return errors.New("account: expected review, show UID or reopen UID")
	}
	ops, err := openOps(*data)
	if err != nil {
		return err
	}
	defer ops.Close()
	ctx := context.Background()
	svc := account.New(account.Options{Store: ops.store, Auth: ops.auth, Log: zerolog.Nop()})
	switch rest[0] {
	case "review":
		list, err := svc.Review(ctx, !*all)
		if err != nil {
			return opsErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "USER\tCANCELLED (UTC)\tHOLDS")
		for _, c := range list {
			fmt.Fprintf(w, "%s\t%s\t%s\n", c.UID, c.CancelledAt.UTC().Format("2006-01-02 15:04"), holdings(c.Holdings))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		what := "cancelled accounts holding money"
		if *all {
			what = "cancelled accounts"
		}
		fmt.Fprintf(out, "%d %s\n", len(list), what)
		return nil
	case "show":
		st, err := svc.Show(ctx, rest[1])
		if err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "user %s\n", st.UID)
		if st.CancelledAt.IsZero() {
			fmt.Fprintln(out, "open (not cancelled)")
		} else {
			fmt.Fprintf(out, "cancelled %s UTC\n", st.CancelledAt.UTC().Format("2006-01-02 15:04"))
		}
		if !st.ReopenedAt.IsZero() {
			fmt.Fprintf(out, "reopened %s UTC", st.ReopenedAt.UTC().Format("2006-01-02 15:04"))
			if st.ReopenedBy != "" {
				fmt.Fprintf(out, " by %s", st.ReopenedBy)
			}
			if st.ReopenNote != "" {
				fmt.Fprintf(out, " (%s)", st.ReopenNote)
			}
			fmt.Fprintln(out)
		}
		if st.Reason != "" {
			fmt.Fprintf(out, "reason: %s\n", st.Reason)
		}
		if !st.RetainUntil.IsZero() {
			fmt.Fprintf(out, "records kept until at least %s\n", st.RetainUntil.UTC().Format(time.DateOnly))
		}
		if len(st.APIKeys) > 0 {
			fmt.Fprintf(out, "API keys deleted: %d\n", len(st.APIKeys))
		}
		fmt.Fprintf(out, "holds: %s\n", holdings(st.Holdings))
		return nil
	default: // reopen
		if err := svc.ReopenAs(ctx, rest[1], *as, *note); err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "reopened %s: the owner can sign in again\n", rest[1])
		return nil
	}
}

// holdings names balances on one line ("nothing" when none).
func holdings(hs []account.Holding) string {
	if len(hs) == 0 {
		return "nothing"
	}
	parts := make([]string, len(hs))
	for i, h := range hs {
		acct := h.Account
		if h.Symbol != "" {
			acct += " " + h.Symbol
		}
		parts[i] = h.Total + " " + h.Coin + " (" + acct + ")"
	}
	return strings.Join(parts, ", ")
}
