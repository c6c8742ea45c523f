package main

import (
	"context"
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
	"tenger/internal/notify/outbox"
	"tenger/internal/store/embedded"
	"tenger/internal/support"
)

// opsStore is the data directory's store, the local outbox and the
// accounts service, as the operator commands (support, account) use them.
type opsStore struct {
	store  *embedded.Store
	outbox *outbox.Outbox
	auth   *auth.Service
}

// openOps opens the data directory for an operator command. The embedded
// store admits one process, so a running tenger serve keeps it: the
// command says so rather than failing on the store's lock.
func openOps(data string) (*opsStore, error) {
	dir := filepath.Join(data, "store")
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("no store in %s (is --data right?): %w", data, err)
	}
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		return nil, fmt.Errorf("the data directory %s is in use or unreadable (stop tenger serve first): %w", data, err)
	}
	ob, err := outbox.Open(filepath.Join(data, "outbox"))
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	a := auth.New(auth.Options{Store: st, Notifier: ob, Log: zerolog.Nop()})
	return &opsStore{store: st, outbox: ob, auth: a}, nil
}

func (o *opsStore) Close() error { return errors.Join(o.outbox.Close(), o.store.Close()) }

// runSupport is the operator's side of the help desk.
func runSupport(args []string) error { return supportCommand(os.Stdout, os.Stdin, args) }

func supportCommand(out io.Writer, in io.Reader, args []string) error {
	fs := flag.NewFlagSet("support", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	status := fs.String("status", "open", "with list: open, answered, closed or all")
	as := fs.String("as", os.Getenv("USER"), "with reply and close: the operator's name, kept on the ticket")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger support [--data DIR] [--status open|answered|closed|all] list
    the tickets in a state, the longest waiting first
tenger support [--data DIR] show ID
    a ticket with its thread and its owner's user id
tenger support [--data DIR] [--as NAME] reply ID TEXT
    answer a ticket (TEXT "-" reads the answer from standard input); it becomes answered and
    its owner is told by e-mail (or SMS)
tenger support [--data DIR] [--as NAME] close ID
    close a ticket: nobody may add to it any more
`)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return errors.New("support: expected list, show, reply or close")
	}
	ctx := context.Background()
	cmd := rest[0]
	switch {
	case cmd == "list" && len(rest) == 1, cmd == "show" && len(rest) == 2, cmd == "close" && len(rest) == 2,
		cmd == "reply" && len(rest) >= 3:
	default:
		fs.Usage()
		return fmt.Errorf("support: bad command %q", strings.Join(rest, " "))
	}
	if (cmd == "reply" || cmd == "close") && strings.TrimSpace(*as) == "" {
		return errors.New("support: name yourself with --as")
	}
	ops, err := openOps(*data)
	if err != nil {
		return err
	}
	defer ops.Close()
	svc := support.New(support.Options{Store: ops.store, Users: ops.auth, Notify: ops.outbox, Log: zerolog.Nop()})
	switch cmd {
	case "list":
		st := *status
		if st == "all" {
			st = ""
		}
		list, err := svc.Queue(ctx, st)
		if err != nil {
			return opsErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSTATUS\tTYPE\tUSER\tMSGS\tLAST\tUPDATED (UTC)\tTITLE")
		for _, t := range list {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", t.ID, t.Status, t.Type, t.UID, t.Messages, t.LastBy,
				utcTime(t.UpdatedAt), t.Title)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d tickets\n", len(list))
		return nil
	case "show":
		d, err := svc.Show(ctx, rest[1])
		if err != nil {
			return opsErr(err)
		}
		printTicket(out, d)
		return nil
	case "reply":
		text := strings.Join(rest[2:], " ")
		if text == "-" {
			b, err := io.ReadAll(io.LimitReader(in, 64<<10))
			if err != nil {
				return err
			}
			text = string(b)
		}
		d, err := svc.Answer(ctx, rest[1], *as, text)
		if err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "answered %s (now %s, %d messages); the owner was told\n", d.ID, d.Status, d.Messages)
		return nil
	default: // close
		if err := svc.Close(ctx, rest[1], *as); err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "closed %s\n", rest[1])
		return nil
	}
}

func printTicket(out io.Writer, d support.Detail) {
	fmt.Fprintf(out, "ticket %s  %s  type %s  user %s\n", d.ID, d.Status, d.Type, d.UID)
	fmt.Fprintf(out, "title: %s\nopened %s, updated %s\n", d.Title, utcTime(d.CreatedAt), utcTime(d.UpdatedAt))
	for _, m := range d.Thread {
		who := m.By
		if m.Operator != "" {
			who += " (" + m.Operator + ")"
		}
		fmt.Fprintf(out, "\n#%d %s, %s\n", m.Seq, who, utcTime(m.At))
		if len(m.Attachments) > 0 {
			fmt.Fprintf(out, "attachments: %s\n", strings.Join(m.Attachments, ", "))
		}
		fmt.Fprintln(out, m.Text)
	}
}

func utcTime(ms int64) string {
	if ms == 0 {
		return "-"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04")
}

// opsErr words a catalogue error for the terminal.
func opsErr(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Entry.Code != apperr.CodeInternal {
		return errors.New(ae.Message(apperr.LangEN))
	}
	return err
}
