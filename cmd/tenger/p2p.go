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

	"github.com/rs/zerolog"

	"tenger/internal/ledger"
	"tenger/internal/p2p"
)

// runP2P is the operator's side of P2P trading: appeals and merchant
// applications.
func runP2P(args []string) error { return p2pCommand(os.Stdout, args) }

const p2pUsage = `tenger p2p [--data DIR] appeals list
    the orders in appeal, the longest waiting first
tenger p2p [--data DIR] appeals show ORDER
    an order in appeal: both sides, the amounts, the appeal and the whole chat
tenger p2p [--data DIR] [--as NAME] [--note TEXT] appeals decide ORDER release|refund
    release the escrow to the buyer (the order completes) or return it to the seller (the
    order is cancelled); both sides see the decision and the note in the order and its chat
tenger p2p [--data DIR] [--as NAME] merchants decide UID approve|refuse
    answer a merchant application (company_apply): an approved merchant may publish ads

Locally the command opens the data directory's store: stop tenger serve first (with --dev,
/dev/p2p/appeal/decide and /dev/p2p/merchant do the same on a running server).
`

func p2pCommand(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("p2p", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	as := fs.String("as", os.Getenv("USER"), "with decide: the operator's name, kept on the order")
	note := fs.String("note", "", "with appeals decide: why, shown to both sides")
	fs.Usage = func() { fmt.Fprint(fs.Output(), p2pUsage) }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	cmd := strings.Join(rest[:min(2, len(rest))], " ")
	switch {
	case cmd == "appeals list" && len(rest) == 2, cmd == "appeals show" && len(rest) == 3,
		cmd == "appeals decide" && len(rest) == 4, cmd == "merchants decide" && len(rest) == 4:
	default:
		fs.Usage()
		return fmt.Errorf("p2p: bad command %q", strings.Join(rest, " "))
	}
	if strings.HasSuffix(cmd, "decide") && strings.TrimSpace(*as) == "" {
		return errors.New("p2p: name yourself with --as")
	}
	ops, err := openOps(*data)
	if err != nil {
		return err
	}
	defer ops.Close()
	svc := p2p.New(p2p.Options{Store: ops.store, Ledger: ledger.New(ops.store, nil), Log: zerolog.Nop()})
	ctx := context.Background()
	switch cmd {
	case "appeals list":
		list, err := svc.Appeals(ctx)
		if err != nil {
			return opsErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "ORDER\tAPPEALED (UTC)\tBY\tREASON\tCOIN\tVOLUME\tFIAT\tBUYER\tSELLER")
		for _, o := range list {
			if o.Appeal == nil {
				continue
			}
			by := "buyer"
			if o.Appeal.By == o.Seller {
				by = "seller"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s %s\t%s\t%s\n", o.ID, utcTime(o.Appeal.At), by, o.Appeal.Reason, o.Coin,
				o.Volume, o.Total, o.Fiat, o.Buyer, o.Seller)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d appeals\n", len(list))
		return nil
	case "appeals show":
		o, err := svc.OrderForOperator(ctx, rest[2])
		if err != nil {
			return opsErr(err)
		}
		msgs, err := svc.OperatorMessages(ctx, o.ID)
		if err != nil {
			return opsErr(err)
		}
		printP2POrder(out, o, msgs)
		return nil
	case "appeals decide":
		o, err := svc.Decide(ctx, rest[2], rest[3], *as, *note)
		if err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "order %s: %s (%s %s to the %s)\n", o.ID, o.Status, o.Volume, o.Coin,
			map[string]string{p2p.OutcomeRelease: "buyer", p2p.OutcomeRefund: "seller"}[rest[3]])
		return nil
	default: // merchants decide
		if rest[3] != "approve" && rest[3] != "refuse" {
			return fmt.Errorf("p2p: merchants decide takes approve or refuse, not %q", rest[3])
		}
		if err := svc.DecideMerchant(ctx, rest[2], *as, rest[3] == "approve"); err != nil {
			return opsErr(err)
		}
		fmt.Fprintf(out, "user %s: merchant application %sd\n", rest[2], rest[3])
		return nil
	}
}

func printP2POrder(out io.Writer, o p2p.Order, msgs []p2p.Message) {
	fmt.Fprintf(out, "order %s  %s\n", o.ID, o.Status)
	fmt.Fprintf(out, "ad %s  maker %s  taker %s\n", o.AdID, o.Maker, o.Taker)
	fmt.Fprintf(out, "buyer %s  seller %s\n", o.Buyer, o.Seller)
	fmt.Fprintf(out, "%s %s at %s = %s %s\n", o.Volume, o.Coin, o.Price, o.Total, o.Fiat)
	fmt.Fprintf(out, "opened %s  pay by %s  paid %s  finished %s\n", utcTime(o.Created), utcTime(o.Deadline), utcTime(o.PaidAt), utcTime(o.DoneAt))
	for _, m := range o.Methods {
		fmt.Fprintf(out, "pays to: %s %s %s (%s)\n", m.Kind, m.Title, m.Account, m.UserName)
	}
	if a := o.Appeal; a != nil {
		fmt.Fprintf(out, "appeal by %s at %s: %s (%s)\n  %s\n", a.By, utcTime(a.At), a.Reason, a.Status, a.Description)
		if len(a.Evidence) > 0 {
			fmt.Fprintf(out, "  evidence: %s\n", strings.Join(a.Evidence, ", "))
		}
		if a.Outcome != "" {
			fmt.Fprintf(out, "  outcome %s by %s at %s: %s\n", a.Outcome, a.DecidedBy, utcTime(a.DecidedAt), a.Note)
		}
	}
	fmt.Fprintf(out, "chat (%d):\n", len(msgs))
	for _, m := range msgs {
		by := m.By
		switch m.By {
		case o.Buyer:
			by = "buyer"
		case o.Seller:
			by = "seller"
		}
		line := m.Text
		if m.Image != "" {
			line += " [image " + m.Image + "]"
		}
		fmt.Fprintf(out, "  %s  %-8s %s\n", utcTime(m.At), by, line)
	}
}
