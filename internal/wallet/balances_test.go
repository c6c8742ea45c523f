package wallet_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/wallet"
	wt "tenger/internal/wallet/wallettest"
)

var (
	usd = wallet.NormalizeCurrency("")
	mnt = wallet.NormalizeCurrency("MNT")
)

// roundPrices makes valuations easy to check by hand: BTC 100000 USDT,
// ETH 5000 USDT, 3450 MNT per USDT (the seed's rate).
func roundPrices(e *wt.Env) {
	e.Prices.Set("BTC", decimal.NewFromInt(100000))
	e.Prices.Set("ETH", decimal.NewFromInt(5000))
}

func TestRatesAndCurrencies(t *testing.T) {
	e := wt.New(t)
	roundPrices(e)
	tables, err := e.Wallet.Rates(ctx)
	wt.WantCode(t, err, "")
	en, mn := tables["en_US"], tables["mn_MN"]
	want := map[string]string{"BTC": "100000", "USDT": "1", "ETH": "5000", "lang_logo": "$"}
	for k, v := range want {
		if en[k] != v {
			t.Errorf("en_US %s = %q, want %q", k, en[k], v)
		}
	}
	wantMN := map[string]string{"BTC": "345000000", "USDT": "3450", "MONT": "1", "MNT": "1", "lang_logo": "₮"}
	for k, v := range wantMN {
		if mn[k] != v {
			t.Errorf("mn_MN %s = %q, want %q", k, mn[k], v)
		}
	}
	if en["MONT"] != "0.00028986" || en["MNT"] != en["MONT"] {
		t.Errorf("en_US MNT = %q / %q", en["MNT"], en["MONT"])
	}
	// The seeded table has a price for every catalogue coin.
	for _, c := range e.Coins.List() {
		if tables["en_US"][c.Symbol] == "" {
			t.Errorf("no seeded price for %s", c.Symbol)
		}
	}
	if wallet.NormalizeCurrency("mnt").Locale != "mn_MN" || wallet.NormalizeCurrency("EUR").ID != "USD" || usd.ID != "USD" {
		t.Fatal("currency mapping")
	}

	v, err := e.Wallet.USDTValue(ctx, "BTC", decimal.RequireFromString("0.5"))
	wt.WantCode(t, err, "")
	if !v.Equal(decimal.NewFromInt(50000)) {
		t.Fatalf("0.5 BTC = %s USDT", v)
	}
	v, _ = e.Wallet.USDTValue(ctx, "MONT", decimal.NewFromInt(6900))
	if !v.Equal(decimal.NewFromInt(2)) {
		t.Fatalf("6900 MNT = %s USDT", v)
	}
	_, err = e.Wallet.USDTValue(ctx, "DOGE", decimal.NewFromInt(1))
	wt.WantCode(t, err, apperr.CodeWalletCoinUnknown)
	e.Prices.Set("TON", decimal.Zero)
	_, err = e.Wallet.USDTValue(ctx, "TON", decimal.NewFromInt(1))
	wt.WantCode(t, err, apperr.CodeWalletNoPrice)
}

func TestBalancePages(t *testing.T) {
	e := wt.New(t)
	roundPrices(e)
	u := e.NewUser(t, wt.Flags{})
	e.Fund(t, u.UID, "USDT", "1000")
	e.Fund(t, u.UID, "BTC", "0.5")
	e.Fund(t, u.UID, "MNT", "345000")

	// Spot only: 1000 USDT = 0.01 BTC, 0.5 BTC, 345000 MNT = 100 USDT = 0.001 BTC.
	o, err := e.Wallet.Overview(ctx, u.UID, "", usd)
	wt.WantCode(t, err, "")
	if o.CoinSymbol != "BTC" || o.Balance != "0.51100000" || o.BalanceFiat != "51100.00" || o.TotalBalance != "0.51100000" ||
		o.FuturesBalance != "0.00000000" || o.LangLogo != "$" {
		t.Fatalf("overview %+v", o)
	}
	o, _ = e.Wallet.Overview(ctx, u.UID, "USDT", mnt)
	if o.Balance != "51100.00000000" || o.BalanceFiat != "176295000.00" || o.Currency != "MNT" {
		t.Fatalf("overview in USDT/MNT %+v", o)
	}
	_, err = e.Wallet.Overview(ctx, u.UID, "DOGE", usd)
	wt.WantCode(t, err, apperr.CodeWalletCoinUnknown)

	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "12.345"}, "")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "100"}, "")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "USDT", Amount: "200"}, "")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTCUSDT", Coin: "BTC", Amount: "0.1"}, "")
	// Freeze some spot USDT (as an order would) to see locked amounts.
	_, err = e.Ledger.Post(ctx, ledger.Posting{ID: "hold-1", Reason: "test_hold",
		Legs: []ledger.Leg{ledger.HoldLeg(ledger.UserAccount(u.UID, ledger.Spot), "USDT", decimal.RequireFromString("87.655"))}})
	wt.WantCode(t, err, "")

	o, _ = e.Wallet.Overview(ctx, u.UID, "BTC", usd)
	// spot: 687.655 USDT (87.655 frozen) + 0.4 BTC + 100 USDT of MNT = 0.40787655 BTC;
	// OTC 12.345 USDT; futures 100 USDT = 0.001; lever 200 USDT + 0.1 BTC = 0.102.
	if o.Balance != "0.40787655" || o.OTCBalance != "0.00012345" || o.FuturesBalance != "0.00100000" ||
		o.LeverBalance != "0.10200000" || o.TotalBalance != "0.51100000" || o.LeverBalanceFiat != "10200.00" {
		t.Fatalf("overview after transfers %+v", o)
	}

	f, err := e.Wallet.FiatBalances(ctx, u.UID, usd)
	wt.WantCode(t, err, "")
	us := f.AllCoinMap["USDT"]
	if us.TotalBalance != "687.655000" || us.NormalBalance != "600.000000" || us.LockBalance != "87.655000" ||
		us.AllBtcValuatin != "0.00687655" || us.Valuation != "687.65" || !us.DepositOpen || !us.WithdrawOpen || us.IsFiat {
		t.Fatalf("USDT entry %+v", us)
	}
	if m := f.AllCoinMap["MNT"]; !m.IsFiat || m.TotalBalance != "345000.00" || m.WithdrawCode != "MONT" {
		t.Fatalf("MNT entry %+v", m)
	}
	if len(f.CoinList) != len(e.Coins.List()) || f.TotalBalance != "0.40787655" || f.TotalBalanceSymbol != "BTC" ||
		f.YesterdayProfit != "0" || f.TotalBalanceFiat != "40787.65" {
		t.Fatalf("fiat balance %+v", f)
	}

	a, err := e.Wallet.SpotBalances(ctx, u.UID, mnt)
	wt.WantCode(t, err, "")
	row := a.AllCoinMap["BTC"]
	if row.Total != "0.40000000" || row.Normal != "0.40000000" || row.Freeze != "0.00000000" || row.Valuation != "138000000.00" ||
		row.ShowPrecision != 8 || row.MainChainName != "BTC" || a.CoinList[0].Coin != "BTC" {
		t.Fatalf("spot row %+v", row)
	}

	c, err := e.Wallet.CrossBalances(ctx, u.UID, usd)
	wt.WantCode(t, err, "")
	cu := c.AllCoinMap["USDT"]
	if cu.TotalBalance != "200.0000" || cu.BorrowBalance != "0.0000" || cu.NetAssetBalance != "200.0000" ||
		cu.UNetAssetBalanceValue != "200.0000" || c.TotalBalance != "0.00200000" || c.RiskRate != "0" || c.TotalBorrowBalance != "0.00000000" {
		t.Fatalf("cross %+v / %+v", c, cu)
	}

	iso, err := e.Wallet.IsolatedBalances(ctx, u.UID, usd)
	wt.WantCode(t, err, "")
	p := iso.List[0]
	if p.Symbol != "BTCUSDT" || p.Name != "BTC/USDT" || p.BaseTotalBalance != "0.1000" || p.QuoteTotalBalance != "0.0000" ||
		p.UBaseNetAssetBalanceValue != "10000.0000" || !p.CanLiquidate || iso.TotalBalance != "0.10000000" || iso.List[1].CanLiquidate {
		t.Fatalf("isolated %+v", iso)
	}

	otc, err := e.Wallet.OTCBalances(ctx, u.UID, usd)
	wt.WantCode(t, err, "")
	ou := otc.AllCoinMap["USDT"]
	if ou.Normal != "12.34" || ou.ExchangeNormal != "600.00" || ou.Lock != "0.00" || otc.TotalBalance != "0.00012345" {
		t.Fatalf("otc %+v", otc)
	}

	fb, err := e.Wallet.FuturesBalances(ctx, u.UID, false, usd)
	wt.WantCode(t, err, "")
	if len(fb.AccountList) != 1 || fb.AccountList[0].CanUseAmount != "100.00000000" || fb.AccountList[0].ExchangeNormal != "600.00000000" ||
		fb.TotalBalance != "100.00000000" || fb.TotalBalanceSymbol != "USDT" || fb.TotalBalanceFiat != "100.00" {
		t.Fatalf("futures %+v", fb)
	}
	fb, _ = e.Wallet.FuturesBalances(ctx, u.UID, true, usd)
	if fb.TotalBalance != "" || len(fb.AccountList) != 1 {
		t.Fatalf("futures onlyAccount %+v", fb)
	}

	eb, err := e.Wallet.EarnBalances(ctx, u.UID, usd)
	wt.WantCode(t, err, "")
	if eb.AllCoinMap["USDT"].YearRate == "" || eb.AllCoinMap["USDT"].Balance != "0.000000" || eb.TotalBalance != "0.00000000" {
		t.Fatalf("earn %+v", eb)
	}

	// Another user sees only zeros.
	v := e.NewUser(t, wt.Flags{})
	o, _ = e.Wallet.Overview(ctx, v.UID, "", usd)
	if o.TotalBalance != "0.00000000" {
		t.Fatalf("other user's overview %+v", o)
	}
	_, err = e.Wallet.FiatBalances(ctx, "", usd)
	wt.WantCode(t, err, apperr.CodeNotSignedIn)
	e.Audit(t)
}

func TestYesterdayProfitAndFuturesStatistics(t *testing.T) {
	e := wt.New(t)
	roundPrices(e)
	u := e.NewUser(t, wt.Flags{})
	e.Fund(t, u.UID, "USDT", "1000")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "50"}, "")
	f, _ := e.Wallet.FiatBalances(ctx, u.UID, usd) // day 1 snapshot: spot 950
	if f.YesterdayProfit != "0" {
		t.Fatalf("first day profit %s", f.YesterdayProfit)
	}
	e.Fund(t, u.UID, "USDT", "95")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "50"}, "")
	e.Clock.Add(24 * time.Hour)
	f, _ = e.Wallet.FiatBalances(ctx, u.UID, usd) // day 2 snapshot: spot 995
	if f.YesterdayProfit != "45.00" || f.YesterdayProfitRate != "4.74" {
		t.Fatalf("profit %s rate %s", f.YesterdayProfit, f.YesterdayProfitRate)
	}
	f, _ = e.Wallet.FiatBalances(ctx, u.UID, mnt)
	if f.YesterdayProfit != "155250.00" {
		t.Fatalf("profit in MNT %s", f.YesterdayProfit)
	}
	e.Clock.Add(24 * time.Hour)
	// Default window: 7 days back to 1 day back (day 1 and day 2).
	st, err := e.Wallet.FuturesStatistics(ctx, u.UID, "", "", "USDT")
	wt.WantCode(t, err, "")
	if st.LastDayAmount != "100.00000000" || st.LastRealizedAmountRate != "100.00" || st.EndDate != "2026-11-22" || st.StartDate != "2026-11-16" {
		t.Fatalf("stats %+v", st)
	}
	st, _ = e.Wallet.FuturesStatistics(ctx, u.UID, "2026-11-21", "2026-11-21", "")
	if st.LastDayAmount != "50.00000000" || st.LastRealizedAmountRate != "0.00" {
		t.Fatalf("one-day stats %+v", st)
	}
	_, err = e.Wallet.FuturesStatistics(ctx, u.UID, "2026-11-22", "2026-11-21", "")
	wt.WantCode(t, err, apperr.CodeWalletHistoryRange)
	_, err = e.Wallet.FuturesStatistics(ctx, u.UID, "yesterday", "", "")
	wt.WantCode(t, err, apperr.CodeParam)
}

func TestTransferModalLookups(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{})
	e.Fund(t, u.UID, "USDT", "10.123456")
	e.Fund(t, u.UID, "BTC", "1")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTCUSDT", Coin: "BTC", Amount: "0.25"}, "")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "USDT", Amount: "1"}, "")

	cross, err := e.Wallet.MarginCoins(wallet.ModeCross)
	wt.WantCode(t, err, "")
	iso, _ := e.Wallet.MarginCoins(wallet.ModeIsolated)
	if len(cross.CoinLists) == 0 || iso.CoinLists[0].Symbol != "BTCUSDT" || iso.CoinLists[0].ShowQuoteCoin != "USDT" || iso.CoinLists[0].CoinSymbol != "BTC" {
		t.Fatalf("lists %+v %+v", cross, iso)
	}
	_, err = e.Wallet.MarginCoins(7)
	wt.WantCode(t, err, apperr.CodeParam)

	mi, err := e.Wallet.MarginBalanceInfo(ctx, u.UID, wallet.MarginTypeCross, "USDT")
	wt.WantCode(t, err, "")
	if mi.ExNormalBalance != "9.1234" || mi.CanTransfer != "1.0000" || *mi.ReturnPrecision != 4 || mi.Name != "USDT" {
		t.Fatalf("cross info %+v", mi)
	}
	mi, err = e.Wallet.MarginBalanceInfo(ctx, u.UID, wallet.MarginTypeIsolated, "BTCUSDT")
	wt.WantCode(t, err, "")
	if mi.BaseExNormalBalance != "0.7500" || mi.BaseCanTransfer != "0.2500" || mi.QuoteCanTransfer != "0.0000" || mi.BaseCoin != "BTC" {
		t.Fatalf("isolated info %+v", mi)
	}
	_, err = e.Wallet.MarginBalanceInfo(ctx, u.UID, wallet.MarginTypeIsolated, "NOPE")
	wt.WantCode(t, err, apperr.CodeWalletPairUnknown)
	_, err = e.Wallet.MarginBalanceInfo(ctx, u.UID, 9, "USDT")
	wt.WantCode(t, err, apperr.CodeParam)

	tl, err := e.Wallet.TransferCoins(ctx, u.UID, ledger.Futures, "")
	wt.WantCode(t, err, "")
	if tl.List[0].Coin != "USDT" || tl.List[0].Precision != 3 || tl.List[0].Normal != "9.123" {
		t.Fatalf("futures coins %+v", tl)
	}
	tl, _ = e.Wallet.TransferCoins(ctx, u.UID, ledger.MarginIsolated, "BTCUSDT")
	if len(tl.List) != 2 || tl.List[0].Target != "0.25000000" {
		t.Fatalf("isolated coins %+v", tl)
	}
	_, err = e.Wallet.TransferCoins(ctx, u.UID, ledger.Spot, "")
	wt.WantCode(t, err, apperr.CodeWalletTransferAccount)
}
