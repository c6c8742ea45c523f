package withdraw_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

// crashDirEnv turns the test binary into the kill -9 test's child: it runs
// deposits and withdrawals against the store in that directory until killed.
const crashDirEnv = "TENGER_WITHDRAW_CRASH_CHILD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		crashChild(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stack is every funds component on one store, as a process has them.
type stack struct {
	st     store.Store
	led    *ledger.Ledger
	dep    *deposit.Service
	sim    *chainsim.Sim
	runner *workflow.Runner
	svc    *withdraw.Service
	watch  *deposit.Watcher
}

func buildStack(dir string, now func() time.Time) (*stack, error) {
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		return nil, err
	}
	cat, err := coins.Defaults()
	if err != nil {
		return nil, err
	}
	der, err := deposit.NewDeriver("local", chain.Config{})
	if err != nil {
		return nil, err
	}
	s := &stack{st: st, led: ledger.New(st, now)}
	s.dep = deposit.New(deposit.Options{Store: st, Ledger: s.led, Coins: cat, Deriver: der, Now: now, Log: zerolog.Nop()})
	s.runner = workflow.New(workflow.Options{Store: st, Now: now, Log: zerolog.Nop(), Poll: 2 * time.Millisecond,
		BackoffBase: time.Millisecond, BackoffMax: 5 * time.Millisecond})
	s.sim = chainsim.New(chainsim.Options{Store: st, Coins: cat, Now: now, Log: zerolog.Nop(), Completer: s.runner, Poll: 5 * time.Millisecond})
	v := newVerifier()
	v.users["u1"] = userWithEmail("u1")
	s.svc = withdraw.New(withdraw.Options{Store: st, Ledger: s.led, Coins: cat, Wallet: newWallet(), Auth: permissive{v}, Chain: s.sim,
		Now: now, Log: zerolog.Nop()})
	s.svc.SetRunner(s.runner, s.runner)
	s.runner.Register(s.svc.Steps().Definition())
	s.watch = s.dep.NewWatcher(s.sim, 5*time.Millisecond)
	return s, nil
}

// permissive accepts any code (the child cannot read codes).
type permissive struct{ *verifier }

func (permissive) VerifyAll(context.Context, string, ...auth.Factor) error { return nil }

func crashChild(dir string) {
	ctx := context.Background()
	s, err := buildStack(dir, time.Now)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	s.runner.Start(ctx)
	s.sim.Start(ctx)
	s.watch.Start(ctx)
	out := bufio.NewWriter(os.Stdout)
	ack := func(line string) { out.WriteString(line + "\n"); out.Flush() }
	a, err := s.dep.ChargeAddress(ctx, "u1", "USDT", "TRC20")
	if err != nil {
		fmt.Fprintln(os.Stderr, "address:", err)
		os.Exit(2)
	}
	to := addrOf(chain.TRC20)
	start := time.Now().UnixNano()
	for i := 0; ; i++ {
		t, err := s.sim.Deposit(ctx, chainsim.DepositReq{Coin: "USDT", Chain: "TRC20", Address: a.AddressLong, Amount: "100"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "deposit:", err)
			os.Exit(3)
		}
		ack("dep " + t.TxID)
		if _, err := s.sim.Mine(ctx, "TRC20", 19); err != nil {
			os.Exit(3)
		}
		_ = s.watch.Scan(ctx)
		res, err := s.svc.Confirm(ctx, "u1", withdraw.ConfirmInput{RequestID: fmt.Sprintf("r%d-%d", start, i), Symbol: "USDT",
			Chain: "TRC20", Address: to, Amount: "20", Codes: withdraw.Codes{Email: "111111"}})
		if err == nil {
			ack("wd " + res.ID)
		}
		if _, err := s.sim.Mine(ctx, "TRC20", 10); err != nil {
			os.Exit(3)
		}
	}
}

func addrOf(c chain.Chain) string {
	d, _ := chain.New(chain.DevelopmentConfig())
	a, _ := d.DepositAddress(c, 4242)
	return a.Address
}

// TestKill9DuringDepositsAndWithdrawals kills the child at random points,
// restarts it, and finally recovers in-process: every acknowledged deposit
// and withdrawal is there, nothing was applied twice, the books audit clean.
func TestKill9DuringDepositsAndWithdrawals(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	deps, wds := map[string]bool{}, map[string]bool{}
	for round := 0; round < 4; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1<<16)
		first := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(stdout)
			once := false
			for sc.Scan() {
				lines <- sc.Text()
				if !once {
					once = true
					close(first)
				}
			}
			close(lines)
		}()
		// Kill at a random point once the child is working (a loaded
		// machine may take a while to start it).
		select {
		case <-first:
		case <-time.After(30 * time.Second):
		}
		time.Sleep(time.Duration(50+rand.IntN(400)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines {
			kind, id, _ := strings.Cut(l, " ")
			switch kind {
			case "dep":
				deps[id] = true
			case "wd":
				wds[id] = true
			}
		}
		_ = cmd.Wait()
	}
	if len(deps) == 0 || len(wds) == 0 {
		t.Fatalf("the child acknowledged %d deposits and %d withdrawals", len(deps), len(wds))
	}
	// Recovery: a later process, after every lease ran out.
	later := time.Now().Add(time.Hour)
	s, err := buildStack(dir, func() time.Time { return later })
	if err != nil {
		t.Fatal(err)
	}
	defer s.st.Close()
	for i := 0; i < 10; i++ {
		if _, err := s.sim.Mine(ctx, "TRC20", 19); err != nil {
			t.Fatal(err)
		}
		if err := s.watch.Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.runner.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := s.led.Audit(ctx)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
	// Deposits: every acknowledged one credited, each exactly once.
	drecs, dn, err := allDeposits(s)
	if err != nil {
		t.Fatal(err)
	}
	credited := decimal.Zero
	for _, r := range drecs {
		if r.Status != deposit.StatusCredited {
			t.Fatalf("deposit not credited after recovery: %+v", r)
		}
		credited = credited.Add(r.Amount)
		delete(deps, r.TxID)
	}
	if len(deps) != 0 {
		t.Fatalf("acknowledged deposits lost: %v", deps)
	}
	// Withdrawals: none left in flight, one send each, settled ones paid once.
	sends := map[string]int{}
	txs, err := s.sim.List(ctx, "TRC20", 5000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tx := range txs {
		if tx.Dir == "out" {
			sends[tx.Ref]++
		}
	}
	paid := decimal.Zero
	wrecs, err := allWithdrawals(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range wrecs {
		switch r.Status {
		case withdraw.StatusSuccess:
			paid = paid.Add(r.Amount)
			if sends[r.ID] != 1 {
				t.Fatalf("withdrawal %s sent %d times", r.ID, sends[r.ID])
			}
		case withdraw.StatusFailed:
		default:
			t.Fatalf("withdrawal in flight after recovery: %+v", r)
		}
		if sends[r.ID] > 1 {
			t.Fatalf("withdrawal %s sent %d times", r.ID, sends[r.ID])
		}
		delete(wds, r.ID)
	}
	if len(wds) != 0 {
		t.Fatalf("acknowledged withdrawals lost: %v", wds)
	}
	bal, _ := s.led.Balance(ctx, ledger.UserAccount("u1", ledger.Spot), "USDT")
	if !bal.Total().Equal(credited.Sub(paid)) || !bal.Frozen.IsZero() {
		t.Fatalf("balance %s/%s, deposits %s (%d), paid %s", bal.Available, bal.Frozen, credited, dn, paid)
	}
	t.Logf("%d deposits credited, %d withdrawals (%s USDT paid), audit clean", len(drecs), len(wrecs), paid)
}

func allDeposits(s *stack) ([]deposit.Record, int, error) {
	var out []deposit.Record
	for p := 1; ; p++ {
		l, n, err := s.dep.History(ctx, "u1", deposit.Filter{Page: p, PageSize: 100})
		if err != nil {
			return nil, 0, err
		}
		out = append(out, l...)
		if len(out) >= n || len(l) == 0 {
			return out, n, nil
		}
	}
}

func allWithdrawals(s *stack) ([]withdraw.Record, error) {
	var out []withdraw.Record
	for p := 1; ; p++ {
		l, n, err := s.svc.History(ctx, "u1", deposit.Filter{Page: p, PageSize: 100})
		if err != nil {
			return nil, err
		}
		out = append(out, l...)
		if len(out) >= n || len(l) == 0 {
			return out, nil
		}
	}
}

func userWithEmail(uid string) auth.User { return auth.User{ID: uid, Email: uid + "@example.com"} }
