package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestMoneySurvivesKill runs deposits (chain and bank) and withdrawals
// against a real `tenger serve`, kills it with SIGKILL at random moments,
// restarts it, and finally proves with `tenger audit` that the books are
// clean: every chain deposit was credited exactly once, every bank deposit
// once per bank transaction id, no withdrawal was sent twice, and the user's
// balance is exactly what the deposits and settled withdrawals leave.
func TestMoneySurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t)}
	s.start()
	defer func() { s.kill() }()
	c := newClient(t, "http://"+s.addr)

	// Several users: e-mail codes are single use with a 90 s resend
	// window, so each user makes one withdrawal.
	type user struct {
		email, uid, token, addr string
		withdrew                bool
	}
	var users []*user
	for i := 0; i < 4; i++ {
		u := &user{email: fmt.Sprintf("money%d@example.mn", i)}
		c.token = ""
		c.ok("/fe-ex-api/v4/common/emailValidCode", map[string]any{"email": u.email, "operationType": 1})
		var reg struct{ UID string }
		json.Unmarshal(c.ok("/fe-ex-api/user/register", map[string]any{"email": u.email, "loginPword": "Passw0rd1", "code": c.lastCode(u.email)}), &reg)
		var login struct{ Token string }
		json.Unmarshal(c.ok("/fe-ex-api/user/login_in", map[string]any{"email": u.email, "loginPword": "Passw0rd1"}), &login)
		c.token = login.Token
		var addr struct {
			AddressLong string `json:"addressLong"`
		}
		json.Unmarshal(c.ok("/fe-ex-api/wallet/get_charge_address", map[string]any{"symbol": "USDT", "chain": "TRC20"}), &addr)
		u.uid, u.token, u.addr = reg.UID, login.Token, addr.AddressLong
		users = append(users, u)
	}

	// Tolerant calls: a call that fails in transport is simply not counted
	// (kills happen between calls, so none should).
	try := func(token, path string, body any) (envelope, bool) {
		c.token = token
		env, status, err := c.do(path, body)
		if status >= 500 {
			t.Errorf("%s: HTTP %d", path, status)
		}
		return env, err == nil
	}
	deposited := decimal.Zero
	bankTx := map[string]bool{}
	withdrawn := 0
	// Every user starts with a confirmed deposit, so each withdrawal below
	// has the funds whatever the random deposits and blocks were: the
	// kills, not the luck of the draw, decide what happens to it.
	for _, u := range users {
		c.token = ""
		c.ok("/dev/chain/deposit", map[string]any{"coin": "USDT", "chain": "TRC20", "address": u.addr, "amount": "50"})
		deposited = deposited.Add(decimal.NewFromInt(50))
	}
	c.ok("/dev/chain/mine", map[string]any{"chain": "TRC20", "blocks": 25})
	for _, u := range users {
		waitAvailable(t, c, u.token, "USDT", decimal.NewFromInt(50))
	}
	var refused []string
	for round := 0; round < 3; round++ {
		for i := 0; i < 5; i++ {
			u := users[rng.Intn(len(users))]
			amt := decimal.New(int64(200+rng.Intn(800)), -1)
			if env, ok := try("", "/dev/chain/deposit", map[string]any{"coin": "USDT", "chain": "TRC20", "address": u.addr, "amount": amt.String()}); ok && env.Code == "0" {
				deposited = deposited.Add(amt)
			}
			id := fmt.Sprintf("B%d-%d", round, i%3) // repeats on purpose: credited once per id
			if env, ok := try("", "/dev/bank/incoming", map[string]any{"amount": "1000", "reference": u.uid, "bankTxId": id}); ok && env.Code == "0" {
				bankTx[id] = true
			}
			try("", "/dev/chain/mine", map[string]any{"chain": "TRC20", "blocks": 1 + rng.Intn(25)})
			if w := users[(round*5+i)%len(users)]; !w.withdrew && i%2 == 1 {
				if env, ok := try(w.token, "/fe-ex-api/v4/common/emailValidCode", map[string]any{"email": w.email, "operationType": 17}); ok && env.Code == "0" {
					env, ok := try(w.token, "/fe-ex-api/wallet/confirm_withdraw", map[string]any{
						"address": "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", "amount": "10", "fee": "1", "symbol": "USDT",
						"trustType": "TRC20", "emailCode": c.lastCode(w.email), "requestId": fmt.Sprintf("w%d-%d", round, i)})
					switch {
					case ok && env.Code == "0":
						withdrawn++
						w.withdrew = true
					case ok:
						refused = append(refused, env.Code+" "+env.Msg)
					}
				}
			}
			// Kill at a random moment: sometimes right after acknowledged
			// writes, sometimes while the workflow and watcher are busy.
			if rng.Intn(3) == 0 {
				time.Sleep(time.Duration(rng.Intn(300)) * time.Millisecond)
				s.kill()
				s.start()
			}
		}
	}
	if withdrawn == 0 {
		t.Fatalf("no withdrawal was accepted: the test exercised nothing (refused: %v)", refused)
	}
	// Let everything finish: confirm deposits and sends, wait for settlement.
	deadline := time.Now().Add(60 * time.Second)
	settled, total := 0, 0
	for {
		try("", "/dev/chain/mine", map[string]any{"chain": "TRC20", "blocks": 25})
		pending := 0
		settled, total = 0, 0
		for _, u := range users {
			var hist struct {
				List []struct {
					Status string `json:"status"`
				} `json:"list"`
			}
			c.token = u.token
			json.Unmarshal(c.ok("/fe-ex-api/wallet/withdraw_history", map[string]any{"pageSize": 100}), &hist)
			for _, w := range hist.List {
				total++
				switch w.Status {
				case "SUCCESS":
					settled++
				case "FAILED":
				default:
					pending++
				}
			}
		}
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d withdrawals still pending", pending)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if total != withdrawn {
		t.Fatalf("%d withdrawals acknowledged, %d in the histories", withdrawn, total)
	}
	sumUSDT, sumMNT := decimal.Zero, decimal.Zero
	for _, u := range users {
		var bal struct {
			AllCoinMap map[string]struct {
				Total string `json:"total"`
			} `json:"allCoinMap"`
		}
		c.token = u.token
		json.Unmarshal(c.ok("/fe-ex-api/finance/v5/account_balance", map[string]any{}), &bal)
		v, _ := decimal.NewFromString(bal.AllCoinMap["USDT"].Total)
		m, _ := decimal.NewFromString(bal.AllCoinMap["MNT"].Total)
		sumUSDT, sumMNT = sumUSDT.Add(v), sumMNT.Add(m)
	}
	if want := deposited.Sub(decimal.NewFromInt(int64(10 * settled))); !sumUSDT.Equal(want) {
		t.Fatalf("users hold %s USDT, want %s (deposited %s, %d withdrawals settled)", sumUSDT, want, deposited, settled)
	}
	if want := decimal.NewFromInt(int64(1000 * len(bankTx))); !sumMNT.Equal(want) {
		t.Fatalf("users hold %s MNT, want %s", sumMNT, want)
	}
	s.kill()
	out, err := exec.Command(s.bin, "audit", "--data", s.data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "audit clean") {
		t.Fatalf("audit: %v\n%s", err, out)
	}
	t.Logf("deposited %s USDT and %d bank transfers, %d withdrawals settled; %s", deposited, len(bankTx), settled, strings.TrimSpace(string(out)))
}

// waitAvailable waits until the user's spot balance of coin has at least
// min available (a deposit credited after its confirmations).
func waitAvailable(t *testing.T, c *client, token, coin string, min decimal.Decimal) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var bal struct {
			AllCoinMap map[string]apiBalance `json:"allCoinMap"`
		}
		c.token = token
		json.Unmarshal(c.ok("/fe-ex-api/finance/v5/account_balance", map[string]any{}), &bal)
		if v, err := decimal.NewFromString(bal.AllCoinMap[coin].Normal); err == nil && v.GreaterThanOrEqual(min) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s available after 20 s: %+v", coin, min, bal.AllCoinMap[coin])
		}
		time.Sleep(100 * time.Millisecond)
	}
}
