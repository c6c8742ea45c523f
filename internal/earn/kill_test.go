package earn

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// The kill test's child process: TestMain runs it when killChildEnv names
// a store directory. It opens the store, prints "running" and runs the
// daily settlement at the time killClockEnv gives, until its parent kills
// it with SIGKILL.
const (
	killChildEnv = "TENGER_EARN_KILL_CHILD"
	killClockEnv = "TENGER_EARN_KILL_CLOCK"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(killChildEnv); dir != "" {
		os.Exit(killChild(dir))
	}
	os.Exit(m.Run())
}

func killChild(dir string) int {
	ms, err := strconv.ParseInt(os.Getenv(killClockEnv), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	st := openStore(nopTB{}, dir)
	cat, err := coins.Defaults()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	led := ledger.New(st, nil)
	svc := New(Options{Store: st, Ledger: led, Funds: spotfunds.Ledger{Led: led, Store: st}, Coins: cat,
		Now: func() time.Time { return time.UnixMilli(ms).UTC() }, Log: zerolog.Nop()})
	fmt.Println("running")
	start := time.Now()
	rep, err := svc.RunDue(ctx)
	fmt.Println("done", rep.Settled, err, time.Since(start))
	_ = st.Close()
	return 0
}

// nopTB lets the child use the tests' store opener.
type nopTB struct{ testing.TB }

func (nopTB) Helper()                   {}
func (nopTB) Fatal(args ...any)         { fmt.Fprintln(os.Stderr, args...); os.Exit(2) }
func (nopTB) Fatalf(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...); os.Exit(2) }

// TestKillDuringDailyRun: thousands of users hold savings; the daily run
// that pays two days of interest (and some standard redemptions) is killed
// with SIGKILL half way; after the restart a run finishes the rest. Every
// user is paid each day exactly once, as the formula says; every
// redemption arrives once; the audit is clean.
func TestKillDuringDailyRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a process test")
	}
	const users = 1000
	for attempt := 0; ; attempt++ {
		dir := filepath.Join(t.TempDir(), "store")
		st := openStore(t, dir)
		e := envOn(t, st, false)
		// Day -1: everyone subscribes (earning from day 0); on day 1 every
		// tenth asks a standard redemption of 100 (after day 0 is settled
		// for them), paid out with day 1's settlement.
		e.at(-1, 12)
		principal := map[string]int64{}
		for i := range users {
			principal[fmt.Sprintf("2%07d", i)] = int64(1000+37*i) * 1_000_000
		}
		parallel(t, users, func(i int) error {
			uid, amount := fmt.Sprintf("2%07d", i), strconv.Itoa(1000+37*i)
			e.deposit(t, uid, "USDT", amount)
			_, err := e.svc.Subscribe(ctx, uid, SubscribeInput{Product: "usdt", Amount: amount})
			return err
		})
		e.at(1, 6)
		parallel(t, users/10, func(i int) error {
			_, err := e.svc.Redeem(ctx, fmt.Sprintf("2%07d", 10*i), RedeemInput{Product: "usdt", Amount: "100", Type: RedeemStandard})
			return err
		})
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		runAt := day0.Add(2*24*time.Hour - 9*time.Hour) // day 2, 01:00 UTC
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killChildEnv+"="+dir, killClockEnv+"="+strconv.FormatInt(runAt.UnixMilli(), 10))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "running\n" {
			t.Fatalf("child: %q", line)
		}
		// The run takes 0.4-0.7 s here: the kill lands within it.
		time.Sleep(time.Duration(60+rand.IntN(200)) * time.Millisecond >> attempt)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		st = openStore(t, dir)
		e = envOn(t, st, false)
		e.clk.Set(runAt)
		settledBefore := 0
		for uid := range principal {
			p, err := e.svc.loadPosition(ctx, uid, "usdt")
			if err != nil {
				t.Fatal(err)
			}
			if p.paid == DayOf(day0)+1 {
				settledBefore++
			}
		}
		if settledBefore == users {
			// The run ended before the kill: again, killing sooner.
			_ = st.Close()
			if attempt == 4 {
				t.Fatal("the daily run kept finishing before the kill")
			}
			continue
		}
		t.Logf("killed with %d of %d users settled through day 1", settledBefore, users)
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		e.clk.Set(runAt.Add(time.Minute))
		if _, err := e.svc.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		pr, _ := e.svc.loadProduct(ctx, "usdt")
		for i := range users {
			uid := fmt.Sprintf("2%07d", i)
			// Day 0 on the principal, day 1 on principal + day 0's interest.
			i0, _ := DailyInterest(principal[uid], pr.tiers)
			i1, _ := DailyInterest(principal[uid]+i0, pr.tiers)
			paid := map[Day]int64{}
			q := store.Query{PK: logPK(uid)}
			page, err := e.st.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range page.Items {
				if it.Str("type") == LogInterest {
					if _, dup := paid[it.Int("day")]; dup {
						t.Fatalf("%s paid twice for %s", uid, DayString(it.Int("day")))
					}
					paid[it.Int("day")], _ = units(dec(it.Str("amount")), 6)
				}
			}
			if len(paid) != 2 || paid[DayOf(day0)] != i0 || paid[DayOf(day0)+1] != i1 {
				t.Fatalf("%s: paid %v, want %d and %d", uid, paid, i0, i1)
			}
			want := principal[uid] + i0 + i1
			spot := int64(0)
			if i%10 == 0 {
				want -= 100_000_000
				spot = 100_000_000
			}
			if b := e.balance(t, uid, ledger.Earn, "USDT"); b.Available.StringFixed(6) != fixed(want, 6) || !b.Frozen.IsZero() {
				t.Fatalf("%s: earn %s/%s, want %s", uid, b.Available, b.Frozen, fixed(want, 6))
			}
			if b := e.balance(t, uid, ledger.Spot, "USDT"); b.Available.StringFixed(6) != fixed(spot, 6) {
				t.Fatalf("%s: spot %s, want %s", uid, b.Available, fixed(spot, 6))
			}
		}
		e.audit(t)
		return
	}
}
