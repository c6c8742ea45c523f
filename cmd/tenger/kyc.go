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
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
	"tenger/internal/platform"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/withdraw"
)

// runKYC is the operator's side of identity verification.
func runKYC(args []string) error { return kycCommand(os.Stdout, args) }

const kycUsage = `tenger kyc [--data DIR | --aws] [--status pending|rejected|verified|unverified] list
    the users of a verification status, most recently changed first (default pending: the
    provider's escalations and reviews that wait)
tenger kyc [--data DIR | --aws] show UID
    a user's applicant (provider, level, review, reject labels and reasons) and its history:
    every webhook and decision, applied or not, and why
tenger kyc [--data DIR | --aws] [--as NAME] [--level L] [--note TEXT] approve UID
    verify the user at a level (default: the level applied for, else basic) by your decision;
    it goes through the same state machine as the provider's reviews
tenger kyc [--data DIR | --aws] [--as NAME] [--level L] --reason TEXT [--labels A,B]
           [--type RETRY|FINAL] [--note TEXT] reject UID
    refuse the user's verification; the reason is shown to the user, the note stays here;
    RETRY lets the user send documents again, FINAL does not
tenger kyc [--data DIR | --aws] limits
    the levels and the 24 h withdrawal limit (USDT) each gives, and the unverified limit
tenger kyc [--data DIR | --aws] limits set --level L --withdraw-daily-usdt N
    change the limit of a level, or of unverified users (--level unverified)
tenger kyc [--data DIR | --aws] levels add NAME --provider-level P --withdraw-daily-usdt N
           [--description TEXT]
    add a level above the others (P is its level name at the provider, set up there first)

Locally the command opens the data directory's store: stop tenger serve first. With --aws it
works on $TABLE_NAME with your AWS credentials.
`

// parseInterspersed parses flags anywhere among the positional arguments
// (tenger kyc limits set --level basic ...), returning the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// openKYCStore opens the store of a data directory for an operator
// command. The embedded store admits one process: a running tenger serve
// keeps it, and the command says so rather than failing on the lock.
func openKYCStore(data string) (store.Store, error) {
	dir := filepath.Join(data, "store")
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("no store in %s (is --data right?): %w", data, err)
	}
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		return nil, fmt.Errorf("the data directory %s is in use or unreadable (stop tenger serve first): %w", data, err)
	}
	return st, nil
}

// kycErr shows a catalogue error by its message.
func kycErr(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Entry.Code != apperr.CodeInternal {
		return errors.New(ae.Message(apperr.LangEN))
	}
	return err
}

func kycCommand(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("kyc", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory (stop tenger serve first: the store admits one process)")
	awsTable := fs.Bool("aws", false, "the AWS runtime's table ($TABLE_NAME, AWS credentials from the environment)")
	status := fs.String("status", "pending", "with list: pending, rejected, verified or unverified")
	as := fs.String("as", os.Getenv("USER"), "with approve and reject: the operator's name, kept in the history")
	level := fs.String("level", "", "with approve, reject and limits set: the level")
	note := fs.String("note", "", "with approve and reject: a note for operators (kept in the history, never shown to the user)")
	reason := fs.String("reason", "", "with reject: the reason shown to the user")
	labels := fs.String("labels", "", "with reject: reject labels, comma separated (e.g. UNSATISFACTORY_PHOTOS,FORGERY)")
	rejectType := fs.String("type", kyc.RejectRetry, "with reject: RETRY or FINAL")
	limit := fs.String("withdraw-daily-usdt", "", "with limits set and levels add: the 24 h withdrawal limit in USDT")
	providerLevel := fs.String("provider-level", "", "with levels add: the level's name at the provider")
	description := fs.String("description", "", "with levels add: what the level asks for, shown to users")
	fs.Usage = func() { fmt.Fprint(fs.Output(), kycUsage) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	verb := strings.Join(pos, " ")
	switch {
	case verb == "list", verb == "limits", verb == "limits set",
		len(pos) == 2 && (pos[0] == "show" || pos[0] == "approve" || pos[0] == "reject"),
		len(pos) == 3 && pos[0] == "levels" && pos[1] == "add":
	default:
		fs.Usage()
		return errors.New("kyc: expected list, show UID, approve UID, reject UID, limits, limits set or levels add NAME")
	}
	ctx := context.Background()
	var st store.Store
	if *awsTable {
		d, err := platform.NewAWS(ctx, zerolog.Nop())
		if err != nil {
			return err
		}
		defer d.Close()
		st = d.Store
	} else {
		if st, err = openKYCStore(*data); err != nil {
			return err
		}
		defer st.Close()
	}
	svc := kyc.New(kyc.Options{Store: st, VerifiedWithdrawDailyUSDT: withdraw.DefaultDailyLimitUSDT, Log: zerolog.Nop()})
	decision := kyc.Decision{Level: *level, Reason: *reason, Note: *note, By: *as, RejectType: strings.ToUpper(*rejectType)}
	for _, l := range strings.Split(*labels, ",") {
		if l = strings.TrimSpace(l); l != "" {
			decision.RejectLabels = append(decision.RejectLabels, l)
		}
	}
	switch pos[0] {
	case "list":
		s, ok := kyc.ParseStatus(*status)
		if !ok {
			return fmt.Errorf("kyc: --status %q: use pending, rejected, verified or unverified", *status)
		}
		list, err := svc.List(ctx, s, 500)
		if err != nil {
			return kycErr(err)
		}
		w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "UID\tSTATUS\tLEVEL\tREVIEW\tHELD\tAPPLICANT\tUPDATED")
		for _, a := range list {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.UserID, a.Status(), a.Level, kycReview(a), kycDash(a.VerifiedLevel),
				kycDash(a.ApplicantID), kycWhen(a.Updated))
		}
		return w.Flush()
	case "show":
		return kycShow(ctx, out, svc, pos[1])
	case "approve", "reject":
		var a kyc.Applicant
		if pos[0] == "approve" {
			a, err = svc.Approve(ctx, pos[1], decision)
		} else {
			a, err = svc.Reject(ctx, pos[1], decision)
		}
		if err != nil {
			return kycErr(err)
		}
		fmt.Fprintf(out, "%s: %s (level %s, review %s, holds %s)\n", a.UserID, a.Status(), a.Level, kycReview(a), kycDash(a.VerifiedLevel))
		return nil
	case "limits":
		if verb == "limits set" {
			n, err := decimal.NewFromString(strings.TrimSpace(*limit))
			if err != nil || *level == "" {
				return errors.New("kyc: limits set needs --level L and --withdraw-daily-usdt N")
			}
			if _, err := svc.SetLimit(ctx, *level, n); err != nil {
				return kycErr(err)
			}
		}
		return kycLimits(ctx, out, svc)
	case "levels":
		n, err := decimal.NewFromString(strings.TrimSpace(*limit))
		if err != nil || *providerLevel == "" {
			return errors.New("kyc: levels add needs --provider-level P and --withdraw-daily-usdt N")
		}
		if _, err := svc.AddLevel(ctx, kyc.Level{Name: pos[2], ProviderLevel: *providerLevel, WithdrawDailyUSDT: n,
			Description: *description}); err != nil {
			return kycErr(err)
		}
		return kycLimits(ctx, out, svc)
	}
	return nil
}

func kycLimits(ctx context.Context, out io.Writer, svc *kyc.Service) error {
	set, err := svc.Settings(ctx)
	if err != nil {
		return kycErr(err)
	}
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "RANK\tLEVEL\tPROVIDER LEVEL\tWITHDRAW 24H (USDT)\tDESCRIPTION")
	fmt.Fprintf(w, "0\t%s\t-\t%s\tno verification\n", kyc.LevelUnverified, set.UnverifiedWithdrawDailyUSDT)
	for i, l := range set.Levels {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", i+1, l.Name, l.ProviderLevel, l.WithdrawDailyUSDT, l.Description)
	}
	return w.Flush()
}

func kycShow(ctx context.Context, out io.Writer, svc *kyc.Service, uid string) error {
	a, found, err := svc.Show(ctx, uid)
	if err != nil {
		return kycErr(err)
	}
	if !found {
		return fmt.Errorf("kyc: user %s has no applicant", uid)
	}
	fmt.Fprintf(out, "user        %s\nstatus      %s\nholds       %s\nlevel       %s (%s)\nreview      %s\n", a.UserID, a.Status(),
		kycDash(a.VerifiedLevel), a.Level, kycDash(a.ProviderLevel), kycReview(a))
	fmt.Fprintf(out, "provider    %s\napplicant   %s\n", kycDash(a.Provider), kycDash(a.ApplicantID))
	if a.Answer == kyc.AnswerRed {
		fmt.Fprintf(out, "labels      %s\nreason      %s\ncomment     %s\n", kycDash(strings.Join(a.RejectLabels, ",")), kycDash(a.Reason),
			kycDash(a.ClientComment))
	}
	fmt.Fprintf(out, "created     %s\nupdated     %s\n\n", kycWhen(a.Created), kycWhen(a.Updated))
	hist, err := svc.History(ctx, uid)
	if err != nil {
		return kycErr(err)
	}
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "AT\tEVENT\tSOURCE\tLEVEL\tANSWER\tOUTCOME\tREASON\tNOTE")
	for _, h := range hist {
		outcome := "applied"
		if h.Ignored != "" {
			outcome = "ignored: " + h.Ignored
		}
		ans := h.Answer
		if h.RejectType != "" {
			ans += " " + h.RejectType
		}
		src := h.Source
		if h.By != "" {
			src += " (" + h.By + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", kycWhen(h.AtMs), h.Kind, src, kycDash(h.ProviderLevel), kycDash(ans), outcome,
			kycDash(h.Reason), kycDash(h.ClientComment))
	}
	return w.Flush()
}

// kycReview is an applicant's review as one word or two.
func kycReview(a kyc.Applicant) string {
	r := kycDash(a.ReviewStatus)
	if a.Answer != "" {
		r += " " + a.Answer
		if a.RejectType != "" {
			r += " " + a.RejectType
		}
	}
	return r
}

func kycDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func kycWhen(ms int64) string {
	if ms <= 0 {
		return "-"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05Z")
}
