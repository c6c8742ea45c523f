package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/earn"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
)

// clock is the deployment's time, moved on by the test day by day (the
// engine's endpoint signs with the real time, as in AWS).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// earnEnv is the earn function, the profile function (sign-up) and the
// wallet function (its earn view) on one table of DynamoDB Local, each
// checked against its own key space, and the engine task behind them.
type earnEnv struct {
	d       *platform.Deps
	clk     *clock
	eng     *spot.Runtime
	box     *fntest.Recorder
	logs    bytes.Buffer
	h       func(context.Context, json.RawMessage) (any, error)
	profile awslambda.HTTPFunc
	wallet  awslambda.HTTPFunc
	calls   int
}

func newEarnEnv(t *testing.T) *earnEnv {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	// Noon UTC: the day moves only when the test moves it.
	now := time.Now().UTC()
	e := &earnEnv{clk: &clock{t: time.Date(now.Year(), now.Month(), now.Day(), 12, 0, 0, 0, time.UTC)}, box: &fntest.Recorder{}}
	e.d = &platform.Deps{Store: fntest.Table(t, "earn-fn"), Notify: e.box, Log: zerolog.Nop(), Now: e.clk.now, Coins: cc,
		Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}}
	e.eng = fntest.Engine(t, e.d)
	h, err := newHandler(e.d)
	if err != nil {
		t.Fatal(err)
	}
	e.h = handler(awslambda.NewRuntime("earn", &e.logs), e.d, h)
	mux := http.NewServeMux()
	httpapi.Mount(mux, e.d.ProfileArea()...)
	e.profile = awslambda.NewRuntime("profile", io.Discard).HTTP(mux)
	routers, err := e.d.WalletArea()
	if err != nil {
		t.Fatal(err)
	}
	wmux := http.NewServeMux()
	httpapi.Mount(wmux, routers...)
	e.wallet = awslambda.NewRuntime("wallet", io.Discard).HTTP(wmux)
	// The operator's product (the admin function's savings.put in AWS):
	// USDT, 6.5% a year up to 10,000 and 3% above, at least 1.
	if err := e.d.Earn().PutSavingsProduct(context.Background(), earn.DevSavingsProducts()[0]); err != nil {
		t.Fatal(err)
	}
	return e
}

// invoke sends a raw event to the function as Lambda does: its own
// request id and, unless the caller's context has one, a deadline as the
// function's timeout gives.
func (e *earnEnv) invoke(ctx context.Context, raw []byte) (any, error) {
	e.calls++
	ctx = lambdacontext.NewContext(ctx, &lambdacontext.LambdaContext{AwsRequestID: fmt.Sprintf("7b2e9c41-3d5f-4a6b-8c7d-%012d", e.calls)})
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 29*time.Second)
		defer cancel()
	}
	return e.h(ctx, raw)
}

// http is the function as the HTTP API invokes it: the event as JSON in,
// the answer as JSON out.
func (e *earnEnv) http(t *testing.T) awslambda.HTTPFunc {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.invoke(ctx, raw)
		if err != nil {
			return events.APIGatewayV2HTTPResponse{}, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		var resp events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("answer %s: %v", b, err)
		}
		return resp, nil
	}
}

// scheduled is the schedule's invocation with the recorded event.
func (e *earnEnv) scheduled(t *testing.T, ctx context.Context) runResult {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "eventbridge_scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.invoke(ctx, raw)
	if err != nil {
		t.Fatalf("scheduled run: %v", err)
	}
	return out.(runResult)
}

func (e *earnEnv) spot(t *testing.T, uid string) decimal.Decimal {
	t.Helper()
	b, err := e.d.Ledger().Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	return b.Available
}

// holding is the caller's USDT product on the savings page (the recorded
// holdings event, cookie auth).
func (e *earnEnv) holding(t *testing.T, token string) earn.Holding {
	t.Helper()
	var hs []earn.Holding
	fntest.Call(t, e.http(t), fntest.SampleEvent(t, "http_earn_savings_holdings.json", map[string]string{"token": token}), &hs)
	if len(hs) != 1 || hs[0].ID != "usdt" {
		t.Fatalf("holdings %+v", hs)
	}
	return hs[0]
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestEarnFunction drives the earn function with the events it receives
// in AWS, on DynamoDB Local with the engine task's endpoint behind it: the
// products page (public, in Mongolian); a subscription through the
// wallet's named operation, repeated with its request id; auto-subscribe
// on; two days later the schedule's run settles the interest and sweeps
// the rest of the spot balance in; a standard redemption is paid into
// spot by the next day's run, and a repeated run pays nothing again; the
// wallet function's earn view shows the interest. The engine, the table
// and the postings agree throughout, and every call stays in its
// function's key space.
func TestEarnFunction(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	e := newEarnEnv(t)
	fn := e.http(t)

	// The products page, before anyone signs in.
	var page httpapi.EarnProjectPage
	fntest.Call(t, fn, fntest.SampleEvent(t, "http_earn_project_page.json", nil), &page)
	if page.Count != 1 || page.List[0].ID != "usdt" || page.List[0].ShowName != "USDT Уян хатан хадгаламж" ||
		page.List[0].YearRate != "6.50" || len(page.List[0].Tiers) != 2 || !page.List[0].Open {
		t.Fatalf("projectPage %+v", page)
	}

	uid, token := fntest.SignUp(t, e.profile, e.box, "saver@tenger.example")
	if err := e.d.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: "USDT", Amount: dec("1000"),
		Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}

	// Subscribe 500 through the wallet's named operation; the retry with
	// the same request id subscribes nothing more.
	sub := func(amount, reqID string) fntest.Envelope {
		return fntest.Call(t, fn, fntest.SampleEvent(t, "http_earn_confirm_subscription.json", map[string]string{"token": token,
			"projectId": "usdt", "coinSymbol": "USDT", "amount": amount, "requestId": reqID}), nil)
	}
	var op earn.OpResult
	env := sub("500", "sub-1")
	if env.Code != "0" || json.Unmarshal(env.Data, &op) != nil || op.Status != "success" || !dec(op.Amount).Equal(dec("500")) {
		t.Fatalf("confirm_subscription %+v %+v", env, op)
	}
	if env := sub("500", "sub-1"); env.Code != "0" || !strings.Contains(string(env.Data), `"replayed":true`) {
		t.Fatalf("the retry %+v", env)
	}
	if got := e.spot(t, uid); !got.Equal(dec("500")) {
		t.Fatalf("spot after the subscription %s", got)
	}
	if env := sub("5000", "sub-2"); env.Code != apperr.CodeWalletInsufficient {
		t.Fatalf("a subscription above the balance: %+v", env)
	}
	if h := e.holding(t, token); !dec(h.Amount).Equal(dec("500")) || !dec(h.Pending).Equal(dec("500")) {
		t.Fatalf("holding on the day %+v", h)
	}
	// Auto-subscribe on, through the increment service's path.
	auto := fntest.At(t, token, "/fe-increment-api/savings/auto", `{"projectId":"usdt","coinSymbol":"USDT","type":1}`)
	if env := fntest.Call(t, fn, auto, nil); env.Code != "0" {
		t.Fatalf("savings/auto %+v", env)
	}

	// Nothing is due on the day itself.
	if r := e.scheduled(t, ctx); r.Settled != 0 || r.AutoSubscribed != 0 || r.Stopped {
		t.Fatalf("the day's run %+v", r)
	}
	// Two days on: the first full day's interest is paid and the rest of
	// the spot balance is swept in; a second run does nothing again.
	e.clk.add(48 * time.Hour)
	r := e.scheduled(t, ctx)
	if r.Positions != 1 || r.Settled != 2 || r.AutoSubscribed != 1 || r.Stopped {
		t.Fatalf("the run two days on %+v", r)
	}
	if again := e.scheduled(t, ctx); again.Positions != 0 || again.Settled != 0 || again.AutoSubscribed != 0 {
		t.Fatalf("a repeated run %+v", again)
	}
	h := e.holding(t, token)
	interest := dec(h.TotalInterest)
	// 500 at 6.5% a year for one day: 0.0890... USDT, rounded down.
	if !interest.IsPositive() || interest.GreaterThan(dec("0.09")) || !dec(h.Amount).Equal(dec("1000").Add(interest)) || h.AutoStatus != 1 {
		t.Fatalf("holding after the run %+v", h)
	}
	if got := e.spot(t, uid); !got.IsZero() {
		t.Fatalf("spot after the sweep %s", got)
	}

	// A standard redemption waits for the next day's settlement; a fast
	// one is in spot at once (the wallet's named operation).
	rel := func(body string) fntest.Envelope {
		return fntest.Call(t, fn, fntest.At(t, token, "/fe-ex-api/wallet/savings/release", body), nil)
	}
	if env := rel(`{"projectId":"usdt","amount":"100","type":"standard","requestId":"red-1"}`); env.Code != "0" ||
		!strings.Contains(string(env.Data), `"arriveDate"`) {
		t.Fatalf("standard redemption %+v", env)
	}
	if env := rel(`{"projectId":"usdt","amount":"50","requestId":"red-2"}`); env.Code != "0" {
		t.Fatalf("fast redemption %+v", env)
	}
	if got := e.spot(t, uid); !got.Equal(dec("50")) {
		t.Fatalf("spot after the fast redemption %s", got)
	}
	// Auto-subscribe off, so the next run pays the redemption out and
	// leaves it in spot.
	auto.Body = `{"projectId":"usdt","coinSymbol":"USDT","type":0}`
	if env := fntest.Call(t, fn, auto, nil); env.Code != "0" {
		t.Fatalf("savings/auto off %+v", env)
	}
	e.clk.add(24 * time.Hour)
	if r := e.scheduled(t, ctx); r.Settled != 1 || r.AutoSubscribed != 0 {
		t.Fatalf("the payout run %+v", r)
	}
	e.scheduled(t, ctx)
	if got := e.spot(t, uid); !got.Equal(dec("150")) {
		t.Fatalf("spot after the payout %s", got)
	}
	if h := e.holding(t, token); !dec(h.Redeeming).IsZero() || !dec(h.TotalInterest).GreaterThan(interest) {
		t.Fatalf("holding after the payout %+v", h)
	}

	// The wallet function's earn view reads the same savings.
	var view struct {
		CoinList []struct {
			CoinSymbol    string `json:"coinSymbol"`
			TotalInterest string `json:"totalInterest"`
		} `json:"coinList"`
	}
	fntest.Call(t, e.wallet, fntest.At(t, token, "/fe-ex-api/wallet/get_earn_balance", `{}`), &view)
	if len(view.CoinList) == 0 || view.CoinList[0].CoinSymbol != "USDT" || !dec(view.CoinList[0].TotalInterest).IsPositive() {
		t.Fatalf("get_earn_balance %+v", view)
	}

	if problems, err := e.eng.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	if rep, err := e.d.Ledger().Audit(ctx, "USDT"); err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
	// Each run is one log line with what it did, and no session token.
	if !strings.Contains(e.logs.String(), `"autoSubscribed":1`) || strings.Contains(e.logs.String(), token) {
		t.Errorf("the runs' log:\n%s", e.logs.String())
	}
}

// A run whose invocation is about to end stops at once and answers
// stopped, without failing (the next run goes on); an event that is
// neither the HTTP API's nor the schedule's is refused.
func TestEarnScheduleDeadlineAndStrangers(t *testing.T) {
	e := newEarnEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if r := e.scheduled(t, ctx); !r.Stopped || r.Positions != 0 {
		t.Fatalf("a run past its deadline %+v", r)
	}
	if !strings.Contains(e.logs.String(), "stopped at its deadline") {
		t.Errorf("no log of the stopped run in %s", e.logs.String())
	}
	for _, name := range []string{"ddb_stream_wf_insert.json", "sfn_withdrawal_hold.json", "ws_connect.json"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
		if err != nil {
			t.Fatal(err)
		}
		if out, err := e.invoke(context.Background(), raw); err == nil {
			t.Errorf("%s was taken: %+v", name, out)
		}
	}
	if _, err := e.invoke(context.Background(), []byte(`{"detail-type":"Scheduled Event","source":"aws.events","time":"soon"}`)); err == nil {
		t.Error("an event with an unreadable time was taken")
	}
}

// The failures of a run that stopped at its deadline leave out what the
// deadline cut short, and keep the rest.
func TestFailures(t *testing.T) {
	cut := apperr.New(apperr.CodeInternal).WithCause(context.DeadlineExceeded)
	other := apperr.New(apperr.CodeInternal)
	if failures(errors.Join(cut, context.Canceled), true) != nil {
		t.Error("the deadline's errors counted as failures")
	}
	if err := failures(errors.Join(cut, other), true); err == nil || !strings.Contains(err.Error(), other.Error()) {
		t.Errorf("a real failure lost: %v", err)
	}
	if failures(cut, false) == nil {
		t.Error("an error of a run that did not stop was dropped")
	}
}

// The earn function's staking and launchpad calls, and the schedule's run
// that settles stakes and distributes a sale, on DynamoDB Local with the
// key-space guard: a 90-day stake with daily rewards and a commitment to
// a sale from spot; after the sale's distribution time one run pays the
// stake's rewards so far and gives the user the tokens and the rest of
// the commitment back, once; the engine, the table and the postings
// agree.
func TestEarnFunctionStakingAndLaunchpad(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	e := newEarnEnv(t)
	fn := e.http(t)
	svc := e.d.Earn()
	for _, p := range earn.DevStakingProducts() {
		if p.ID == "usdt-90" {
			if err := svc.PutStakingProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	sales := earn.DevLaunchProjects(e.clk.now())
	if err := svc.PutLaunchProject(ctx, sales[0]); err != nil {
		t.Fatal(err)
	}
	uid, token := fntest.SignUp(t, e.profile, e.box, "staker@tenger.example")
	if err := e.d.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: "USDT", Amount: dec("1000"),
		Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	call := func(path, body string) fntest.Envelope {
		t.Helper()
		env := fntest.Call(t, fn, fntest.At(t, token, path, body), nil)
		if env.Code != "0" {
			t.Fatalf("%s: %+v", path, env)
		}
		return env
	}
	call("/fe-increment-api/noToken/increment/project_list", `{}`)
	call("/fe-increment-api/staking_create_order", `{"projectId":"usdt-90","amount":"300","requestId":"stk-1"}`)
	call("/fe-ex-api/newcoinV2/newcoin_project_listV2", `{}`)
	call("/fe-ex-api/api/newcoin_purchase", `{"projectId":"ton-launch","amount":"220","requestId":"lp-1"}`)
	call("/fe-ex-api/common/launchpad_footer", `{}`)
	if got := e.spot(t, uid); !got.Equal(dec("480")) {
		t.Fatalf("spot after the stake and the commitment %s", got)
	}

	// Past the sale's distribution: the run pays the stake's rewards so
	// far and distributes the sale; a second run changes nothing.
	e.clk.add(time.Duration(sales[0].DistributeAt-e.clk.now().UnixMilli())*time.Millisecond + 24*time.Hour)
	r := e.scheduled(t, ctx)
	if r.Stakes != 1 || r.Launchpads != 1 || r.Settled == 0 || r.Stopped {
		t.Fatalf("the run after the distribution time %+v", r)
	}
	if again := e.scheduled(t, ctx); again.Launchpads != 0 || again.Settled != 0 {
		t.Fatalf("a repeated run %+v", again)
	}
	ton, err := e.d.Ledger().Balance(ctx, ledger.UserAccount(uid, ledger.Spot), "TON")
	if err != nil || !ton.Available.Equal(dec("100")) {
		t.Fatalf("TON after the distribution (220 USDT at 2.2) %+v %v", ton, err)
	}
	var stakes []earn.StakeView
	if env := call("/fe-increment-api/increment/my_pos", `{}`); json.Unmarshal(env.Data, &stakes) != nil || len(stakes) != 1 {
		t.Fatalf("my_pos %s", env.Data)
	}
	if problems, err := e.eng.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	for _, coin := range []string{"USDT", "TON"} {
		if rep, err := e.d.Ledger().Audit(ctx, coin); err != nil || !rep.Clean() {
			t.Fatalf("audit %s %v %v", coin, rep.Problems, err)
		}
	}
}

// A crypto loan through the earn function, and its liquidation by the
// schedule's run, on DynamoDB Local with the key-space guard: a user
// borrows USDT against BTC from spot; the BTC reference price falls below
// the loan's liquidation price; the run sells the collateral with a
// market order of the liquidator through the BTC/USDT book (the engine
// task's), pays the debt and the fee from the proceeds and returns the
// rest; a second run does nothing again. The engine, the table and the
// postings agree.
func TestEarnFunctionLoanLiquidation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	e := newEarnEnv(t)
	fn := e.http(t)
	credit := func(uid, coin, amount string) {
		t.Helper()
		if err := e.d.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "dep:" + uid + ":" + coin, UID: uid, Coin: coin, Amount: dec(amount),
			Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}
	// A buyer's bid on the book takes the liquidation's sale.
	credit("10000777", "USDT", "30000")
	if _, err := e.d.Spot().PlaceOrder(ctx, "10000777", spot.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT",
		Price: "22000", Volume: "1"}); err != nil {
		t.Fatal(err)
	}
	uid, token := fntest.SignUp(t, e.profile, e.box, "borrower@tenger.example")
	credit(uid, "BTC", "1")
	var loan earn.LoanView
	env := fntest.Call(t, fn, fntest.At(t, token, "/fe-increment-api/borrow/mortgage_borrow",
		`{"coin":"USDT","amount":"20000","collateralCoin":"BTC","collateralAmount":"1","term":7,"requestId":"loan-1"}`), nil)
	if env.Code != "0" || json.Unmarshal(env.Data, &loan) != nil || loan.Status != "pending_repayment" {
		t.Fatalf("mortgage_borrow %+v", env)
	}
	if got := e.spot(t, uid); !got.Equal(dec("20000")) {
		t.Fatalf("spot USDT after borrowing %s", got)
	}
	if r := e.scheduled(t, ctx); r.Stopped {
		t.Fatalf("a run with the loan healthy %+v", r)
	}
	// BTC at 23,000: 20,000 and interest ÷ 23,000 is above the 83% LTV.
	if err := e.d.Store.Put(ctx, map[string]any{"pk": "refprice", "sk": "btcusdt", "p": dec("23000"), "c": dec("23000"),
		"at": e.clk.now().UnixMilli()}, nil); err != nil {
		t.Fatal(err)
	}
	e.clk.add(2 * time.Hour)
	r := e.scheduled(t, ctx)
	if r.Loans == 0 || r.Stopped {
		t.Fatalf("the liquidation run %+v", r)
	}
	var loans []earn.LoanView
	fntest.Call(t, fn, fntest.At(t, token, "/fe-increment-api/borrow/get_borrow_order_list", `{}`), &loans)
	if len(loans) != 1 || loans[0].Status != "liquidated" {
		t.Fatalf("the loan after the run %+v", loans)
	}
	btc, err := e.d.Ledger().Balance(ctx, ledger.UserAccount("10000777", ledger.Spot), "BTC")
	if err != nil || !btc.Available.Equal(dec("0.999")) {
		t.Fatalf("the buyer's BTC (1 less the 0.1%% fee) %+v %v", btc, err)
	}
	e.scheduled(t, ctx)
	if problems, err := e.eng.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	for _, coin := range []string{"USDT", "BTC"} {
		if rep, err := e.d.Ledger().Audit(ctx, coin); err != nil || !rep.Clean() {
			t.Fatalf("audit %s %v %v", coin, rep.Problems, err)
		}
	}
}
