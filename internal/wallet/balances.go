package wallet

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/ledger"
)

// Valuation coin of the balance pages ("totalBalanceSymbol").
const valuationCoin = "BTC"

func fx(d decimal.Decimal, p int32) string { return coins.FormatFixed(d, p) }

// holdings are one user's balances of every kind, read with one query.
type holdings struct {
	byKind map[ledger.Kind]map[string]ledger.Balance // kind → coin → balance (not isolated)
	iso    map[string]map[string]ledger.Balance      // pair → coin → balance
	all    []ledger.Balance
}

func (h holdings) get(k ledger.Kind, coin string) ledger.Balance {
	return h.byKind[k][coin]
}

func (h holdings) isolated(pair, coin string) ledger.Balance { return h.iso[pair][coin] }

func (s *Service) holdings(ctx context.Context, uid string) (holdings, error) {
	bs, err := s.led.Balances(ctx, uid, "")
	if err != nil {
		return holdings{}, internal(err)
	}
	h := holdings{byKind: map[ledger.Kind]map[string]ledger.Balance{}, iso: map[string]map[string]ledger.Balance{}, all: bs}
	for _, b := range bs {
		if b.Account.Kind == ledger.MarginIsolated {
			if h.iso[b.Account.Sub] == nil {
				h.iso[b.Account.Sub] = map[string]ledger.Balance{}
			}
			h.iso[b.Account.Sub][b.Coin] = b
			continue
		}
		if h.byKind[b.Account.Kind] == nil {
			h.byKind[b.Account.Kind] = map[string]ledger.Balance{}
		}
		h.byKind[b.Account.Kind][b.Coin] = b
	}
	return h, nil
}

// kindValue values every balance of the kinds in the valuation coin.
func (h holdings) value(v *valuer, target string, kinds ...ledger.Kind) decimal.Decimal {
	sum := zero
	for _, b := range h.all {
		for _, k := range kinds {
			if b.Account.Kind == k {
				sum = sum.Add(v.in(target, b.Coin, b.Total()))
			}
		}
	}
	return sum
}

// userKinds are the account kinds a user holds.
var userKinds = []ledger.Kind{ledger.Spot, ledger.Earn, ledger.Futures, ledger.MarginCross, ledger.MarginIsolated, ledger.OTC, ledger.Loan}

// OverviewBalance is get_overview_balance: each account kind valued in the
// valuation coin (coinSymbol, BTC by default) and converted to the chosen
// currency through that coin's rate (spec §1).
type OverviewBalance struct {
	CoinSymbol         string `json:"coinSymbol" doc:"the valuation coin"`
	Currency           string `json:"currency" doc:"USD or MNT"`
	LangLogo           string `json:"lang_logo"`
	Balance            string `json:"balance" doc:"spot account"`
	BalanceFiat        string `json:"balanceFiat"`
	SavingsBalance     string `json:"savingsBalance" doc:"earn account"`
	SavingsBalanceFiat string `json:"savingsBalanceFiat"`
	FuturesBalance     string `json:"futuresBalance"`
	FuturesBalanceFiat string `json:"futuresBalanceFiat"`
	LeverBalance       string `json:"leverBalance" doc:"margin: cross and isolated"`
	LeverBalanceFiat   string `json:"leverBalanceFiat"`
	OTCBalance         string `json:"otcBalance"`
	OTCBalanceFiat     string `json:"otcBalanceFiat"`
	TotalBalance       string `json:"totalbalance" doc:"all accounts"`
	TotalBalanceFiat   string `json:"totalbalanceFiat"`
}

// Overview answers get_overview_balance.
func (s *Service) Overview(ctx context.Context, uid, coinSymbol string, cur Currency) (OverviewBalance, error) {
	target := valuationCoin
	if strings.TrimSpace(coinSymbol) != "" {
		c, err := s.coin(coinSymbol)
		if err != nil {
			return OverviewBalance{}, err
		}
		target = c.Symbol
	}
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return OverviewBalance{}, err
	}
	p := int32(coins.PrecisionTotals)
	val := func(kinds ...ledger.Kind) (string, string) {
		d := h.value(v, target, kinds...)
		return fx(d, p), v.toFiat(cur, target, d)
	}
	o := OverviewBalance{CoinSymbol: target, Currency: cur.ID, LangLogo: cur.LangLogo}
	o.Balance, o.BalanceFiat = val(ledger.Spot)
	o.SavingsBalance, o.SavingsBalanceFiat = val(ledger.Earn)
	o.FuturesBalance, o.FuturesBalanceFiat = val(ledger.Futures)
	o.LeverBalance, o.LeverBalanceFiat = val(ledger.MarginCross, ledger.MarginIsolated)
	o.OTCBalance, o.OTCBalanceFiat = val(ledger.OTC)
	o.TotalBalance, o.TotalBalanceFiat = val(userKinds...)
	return o, nil
}

// load reads the holdings and prices, and records today's snapshot.
func (s *Service) load(ctx context.Context, uid string) (holdings, *valuer, error) {
	if uid == "" {
		return holdings{}, nil, errNotSignedIn()
	}
	h, err := s.holdings(ctx, uid)
	if err != nil {
		return holdings{}, nil, err
	}
	v, err := s.valuer(ctx)
	if err != nil {
		return holdings{}, nil, err
	}
	s.snapshot(ctx, uid, h, v)
	return h, v, nil
}

// FiatCoin is one coin of get_fiat_balance's allCoinMap (the spot account).
type FiatCoin struct {
	CoinName          string `json:"coinName"`
	ShowName          string `json:"showName"`
	LongName          string `json:"longName"`
	Icon              string `json:"icon"`
	TotalBalance      string `json:"total_balance"`
	NormalBalance     string `json:"normal_balance" doc:"available"`
	LockBalance       string `json:"lock_balance" doc:"frozen"`
	OverchargeBalance string `json:"overcharge_balance"`
	AllBtcValuatin    string `json:"allBtcValuatin" doc:"BTC value, 8 decimals"`
	Valuation         string `json:"valuation" doc:"value in the chosen currency, 2 decimals"`
	DepositOpen       bool   `json:"depositOpen"`
	WithdrawOpen      bool   `json:"withdrawOpen"`
	IsFiat            bool   `json:"isFiat"`
	ShowPrecision     int32  `json:"showPrecision"`
	DepositCode       string `json:"depositCode" doc:"code of the deposit screens (MNT)"`
	WithdrawCode      string `json:"withdrawCode" doc:"code of the withdraw screens (MONT)"`
	Sort              int    `json:"sort"`
}

// FiatBalance is get_fiat_balance.
type FiatBalance struct {
	AllCoinMap          map[string]FiatCoin `json:"allCoinMap"`
	CoinList            []string            `json:"coinList" doc:"the coins in display order"`
	TotalBalance        string              `json:"totalBalance"`
	TotalBalanceSymbol  string              `json:"totalBalanceSymbol"`
	TotalBalanceFiat    string              `json:"totalBalanceFiat"`
	Currency            string              `json:"currency"`
	LangLogo            string              `json:"lang_logo"`
	YesterdayProfit     string              `json:"yesterdayProfit" doc:"spot value change over yesterday (from the daily snapshots), in the chosen currency; 0 without snapshots"`
	YesterdayProfitRate string              `json:"yesterdayProfitRate" doc:"percent, 2 decimals"`
}

func codeOr(code, sym string) string {
	if code == "" {
		return sym
	}
	return code
}

// FiatBalances answers get_fiat_balance: every catalogue coin of the spot account.
func (s *Service) FiatBalances(ctx context.Context, uid string, cur Currency) (FiatBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return FiatBalance{}, err
	}
	out := FiatBalance{AllCoinMap: map[string]FiatCoin{}, CoinList: []string{}, TotalBalanceSymbol: valuationCoin,
		Currency: cur.ID, LangLogo: cur.LangLogo}
	total := zero
	for i, c := range s.cat.List() {
		b := h.get(ledger.Spot, c.Symbol)
		btc := v.in(valuationCoin, c.Symbol, b.Total())
		total = total.Add(btc)
		out.AllCoinMap[c.Symbol] = FiatCoin{
			CoinName: c.Symbol, ShowName: c.Name, LongName: c.LongName, Icon: c.Icon,
			TotalBalance: fx(b.Total(), c.Precision), NormalBalance: fx(b.Available, c.Precision),
			LockBalance: fx(b.Frozen, c.Precision), OverchargeBalance: fx(zero, c.Precision),
			AllBtcValuatin: fx(btc, coins.PrecisionTotals), Valuation: v.toFiat(cur, valuationCoin, btc),
			DepositOpen: c.DepositOpen(), WithdrawOpen: c.WithdrawOpen(), IsFiat: c.IsFiat, ShowPrecision: c.Precision,
			DepositCode: codeOr(c.DepositCode, c.Symbol), WithdrawCode: codeOr(c.WithdrawCode, c.Symbol), Sort: i + 1,
		}
		out.CoinList = append(out.CoinList, c.Symbol)
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.TotalBalanceFiat = v.toFiat(cur, valuationCoin, total)
	out.YesterdayProfit, out.YesterdayProfitRate = s.yesterdayProfit(ctx, uid, v, cur)
	return out, nil
}

// SpotRow is one coin of /finance/v5/account_balance, with its coin config.
type SpotRow struct {
	Coin              string `json:"coin"`
	Name              string `json:"name"`
	Total             string `json:"total"`
	Normal            string `json:"normal" doc:"available"`
	Freeze            string `json:"freeze" doc:"locked"`
	OverchargeBalance string `json:"overcharge_balance"`
	ShowUnlockSell    int    `json:"showUnlockSell"`
	Valuation         string `json:"valuation" doc:"value in the chosen currency, 2 decimals"`
	BtcValuation      string `json:"btcValuation"`
	Icon              string `json:"icon"`
	LongName          string `json:"longName"`
	ShowName          string `json:"showName"`
	ShowPrecision     int32  `json:"showPrecision"`
	IsOvercharge      int    `json:"isOvercharge"`
	MainChainName     string `json:"mainChainName"`
	DepositOpen       bool   `json:"depositOpen"`
	WithdrawOpen      bool   `json:"withdrawOpen"`
	IsFiat            bool   `json:"isFiat"`
}

// AccountBalance is /finance/v5/account_balance: the spot coin rows.
type AccountBalance struct {
	TotalBalance       string             `json:"totalBalance"`
	TotalBalanceSymbol string             `json:"totalBalanceSymbol"`
	TotalValuation     string             `json:"totalValuation" doc:"in the chosen currency"`
	Currency           string             `json:"currency"`
	LangLogo           string             `json:"lang_logo"`
	AllCoinMap         map[string]SpotRow `json:"allCoinMap"`
	CoinList           []SpotRow          `json:"coinList" doc:"the same rows in display order"`
}

// SpotBalances answers /finance/v5/account_balance.
func (s *Service) SpotBalances(ctx context.Context, uid string, cur Currency) (AccountBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return AccountBalance{}, err
	}
	out := AccountBalance{TotalBalanceSymbol: valuationCoin, Currency: cur.ID, LangLogo: cur.LangLogo,
		AllCoinMap: map[string]SpotRow{}, CoinList: []SpotRow{}}
	total := zero
	for _, c := range s.cat.List() {
		b := h.get(ledger.Spot, c.Symbol)
		btc := v.in(valuationCoin, c.Symbol, b.Total())
		total = total.Add(btc)
		main := ""
		if len(c.Chains) > 0 {
			main = c.Chains[0].MainChainName
		}
		row := SpotRow{
			Coin: c.Symbol, Name: c.Name, Total: fx(b.Total(), c.Precision), Normal: fx(b.Available, c.Precision),
			Freeze: fx(b.Frozen, c.Precision), OverchargeBalance: fx(zero, c.Precision),
			Valuation: v.toFiat(cur, valuationCoin, btc), BtcValuation: fx(btc, coins.PrecisionTotals),
			Icon: c.Icon, LongName: c.LongName, ShowName: c.Name, ShowPrecision: c.Precision, MainChainName: main,
			DepositOpen: c.DepositOpen(), WithdrawOpen: c.WithdrawOpen(), IsFiat: c.IsFiat,
		}
		out.AllCoinMap[c.Symbol] = row
		out.CoinList = append(out.CoinList, row)
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.TotalValuation = v.toFiat(cur, valuationCoin, total)
	return out, nil
}

// CrossCoin is one coin of the cross margin account.
type CrossCoin struct {
	CoinSymbol            string `json:"coinSymbol"`
	Icon                  string `json:"icon"`
	TotalBalance          string `json:"totalBalance"`
	NormalBalance         string `json:"normalBalance"`
	LockBalance           string `json:"lockBalance"`
	BorrowBalance         string `json:"borrowBalance"`
	Interest              string `json:"interest"`
	NetAssetBalance       string `json:"netAssetBalance"`
	UNetAssetBalanceValue string `json:"u_netAssetBalanceValue" doc:"net asset value in USDT"`
	ReturnPrecision       int32  `json:"returnPrecision"`
}

// CrossBalance is get_margin_cross_balance.
type CrossBalance struct {
	AllCoinMap         map[string]CrossCoin `json:"allCoinMap"`
	CoinList           []CrossCoin          `json:"coinList"`
	TotalBalance       string               `json:"totalBalance" doc:"in totalBalanceSymbol"`
	TotalBalanceSymbol string               `json:"totalBalanceSymbol"`
	NetAssetBalance    string               `json:"netAssetBalance"`
	TotalBorrowBalance string               `json:"totalBorrowBalance"`
	TotalBalanceFiat   string               `json:"totalBalanceFiat"`
	RiskRate           string               `json:"riskRate" doc:"assets / (borrowed + interest); 0 while nothing is borrowed"`
	RemindRiskRate     string               `json:"remindRiskRate" doc:"risk rate below which the user is warned"`
	Currency           string               `json:"currency"`
	LangLogo           string               `json:"lang_logo"`
}

// Borrowing arrives with margin trading; until then borrowed amounts and
// interest are the ledger's zeros (no posting ever borrows).
func riskRate(assets, debt decimal.Decimal) string {
	if !debt.IsPositive() {
		return "0"
	}
	return assets.DivRound(debt, 4).StringFixed(2)
}

// CrossBalances answers get_margin_cross_balance.
func (s *Service) CrossBalances(ctx context.Context, uid string, cur Currency) (CrossBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return CrossBalance{}, err
	}
	mp := int32(coins.PrecisionMarginDefault)
	out := CrossBalance{AllCoinMap: map[string]CrossCoin{}, CoinList: []CrossCoin{}, TotalBalanceSymbol: valuationCoin,
		RemindRiskRate: s.markets.RemindRiskRate, Currency: cur.ID, LangLogo: cur.LangLogo}
	total, net, borrow := zero, zero, zero
	for _, sym := range s.markets.CrossCoins {
		c, ok := s.cat.Coin(sym)
		if !ok {
			continue
		}
		b := h.get(ledger.MarginCross, c.Symbol)
		netAmt := b.Total() // minus borrowed and interest, both zero until margin lending exists
		u, _ := v.inUSDT(c.Symbol, netAmt)
		total = total.Add(v.in(valuationCoin, c.Symbol, b.Total()))
		net = net.Add(v.in(valuationCoin, c.Symbol, netAmt))
		e := CrossCoin{
			CoinSymbol: c.Symbol, Icon: c.Icon, TotalBalance: fx(b.Total(), mp), NormalBalance: fx(b.Available, mp),
			LockBalance: fx(b.Frozen, mp), BorrowBalance: fx(zero, mp), Interest: fx(zero, mp),
			NetAssetBalance: fx(netAmt, mp), UNetAssetBalanceValue: fx(u, mp), ReturnPrecision: mp,
		}
		out.AllCoinMap[c.Symbol] = e
		out.CoinList = append(out.CoinList, e)
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.NetAssetBalance = fx(net, coins.PrecisionTotals)
	out.TotalBorrowBalance = fx(borrow, coins.PrecisionTotals)
	out.TotalBalanceFiat = v.toFiat(cur, valuationCoin, total)
	out.RiskRate = riskRate(total, borrow)
	return out, nil
}

// IsolatedPairBalance is one pair of get_margin_isolated_balance.
type IsolatedPairBalance struct {
	Symbol                     string `json:"symbol"`
	Name                       string `json:"name"`
	BaseCoin                   string `json:"baseCoin"`
	QuoteCoin                  string `json:"quoteCoin"`
	RiskRate                   string `json:"riskRate"`
	Multiple                   int    `json:"multiple"`
	BaseTotalBalance           string `json:"baseTotalBalance"`
	BaseNormalBalance          string `json:"baseNormalBalance"`
	BaseLockBalance            string `json:"baseLockBalance"`
	BaseBorrowBalance          string `json:"baseBorrowBalance"`
	BaseInterest               string `json:"baseInterest"`
	BaseNetAssetBalance        string `json:"baseNetAssetBalance"`
	UBaseNetAssetBalanceValue  string `json:"u_baseNetAssetBalanceValue"`
	QuoteTotalBalance          string `json:"quoteTotalBalance"`
	QuoteNormalBalance         string `json:"quoteNormalBalance"`
	QuoteLockBalance           string `json:"quoteLockBalance"`
	QuoteBorrowBalance         string `json:"quoteBorrowBalance"`
	QuoteInterest              string `json:"quoteInterest"`
	QuoteNetAssetBalance       string `json:"quoteNetAssetBalance"`
	UQuoteNetAssetBalanceValue string `json:"u_quoteNetAssetBalanceValue"`
	NetAssetBalance            string `json:"netAssetBalance" doc:"pair net assets in totalBalanceSymbol"`
	// CanLiquidate: spec §3, baseNormalBalance>0 or quoteBorrowBalance>0.
	CanLiquidate bool `json:"canLiquidate"`
}

// IsolatedBalance is get_margin_isolated_balance.
type IsolatedBalance struct {
	List               []IsolatedPairBalance `json:"list"`
	TotalBalance       string                `json:"totalBalance"`
	TotalBalanceSymbol string                `json:"totalBalanceSymbol"`
	NetAssetBalance    string                `json:"netAssetBalance"`
	TotalBorrowBalance string                `json:"totalBorrowBalance"`
	TotalBalanceFiat   string                `json:"totalBalanceFiat"`
	Currency           string                `json:"currency"`
	LangLogo           string                `json:"lang_logo"`
}

// IsolatedBalances answers get_margin_isolated_balance.
func (s *Service) IsolatedBalances(ctx context.Context, uid string, cur Currency) (IsolatedBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return IsolatedBalance{}, err
	}
	mp := int32(coins.PrecisionMarginDefault)
	out := IsolatedBalance{List: []IsolatedPairBalance{}, TotalBalanceSymbol: valuationCoin, Currency: cur.ID, LangLogo: cur.LangLogo}
	total := zero
	for _, p := range s.markets.Isolated {
		bb, qb := h.isolated(p.Symbol, p.Base), h.isolated(p.Symbol, p.Quote)
		ub, _ := v.inUSDT(p.Base, bb.Total())
		uq, _ := v.inUSDT(p.Quote, qb.Total())
		pairTotal := v.in(valuationCoin, p.Base, bb.Total()).Add(v.in(valuationCoin, p.Quote, qb.Total()))
		total = total.Add(pairTotal)
		out.List = append(out.List, IsolatedPairBalance{
			Symbol: p.Symbol, Name: p.Name(), BaseCoin: p.Base, QuoteCoin: p.Quote, Multiple: p.Multiple,
			RiskRate:         riskRate(pairTotal, zero),
			BaseTotalBalance: fx(bb.Total(), mp), BaseNormalBalance: fx(bb.Available, mp), BaseLockBalance: fx(bb.Frozen, mp),
			BaseBorrowBalance: fx(zero, mp), BaseInterest: fx(zero, mp), BaseNetAssetBalance: fx(bb.Total(), mp),
			UBaseNetAssetBalanceValue: fx(ub, mp),
			QuoteTotalBalance:         fx(qb.Total(), mp), QuoteNormalBalance: fx(qb.Available, mp), QuoteLockBalance: fx(qb.Frozen, mp),
			QuoteBorrowBalance: fx(zero, mp), QuoteInterest: fx(zero, mp), QuoteNetAssetBalance: fx(qb.Total(), mp),
			UQuoteNetAssetBalanceValue: fx(uq, mp),
			NetAssetBalance:            fx(pairTotal, coins.PrecisionTotals),
			CanLiquidate:               bb.Available.IsPositive(),
		})
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.NetAssetBalance = out.TotalBalance
	out.TotalBorrowBalance = fx(zero, coins.PrecisionTotals)
	out.TotalBalanceFiat = v.toFiat(cur, valuationCoin, total)
	return out, nil
}

// OTCCoinBalance is one coin of the OTC account (spec §9: 2 decimals).
type OTCCoinBalance struct {
	CoinSymbol     string `json:"coinSymbol"`
	Name           string `json:"name"`
	Icon           string `json:"icon"`
	Normal         string `json:"normal" doc:"available in the OTC account"`
	CanUseAmount   string `json:"canUseAmount" doc:"same as normal"`
	Lock           string `json:"lock"`
	Total          string `json:"total"`
	ExchangeNormal string `json:"exchangeNormal" doc:"available in the spot account (transfer source)"`
	BtcValuation   string `json:"btcValuation"`
}

// OTCAccount is otc_account_list.
type OTCAccount struct {
	TotalBalance       string                    `json:"totalBalance"`
	TotalBalanceSymbol string                    `json:"totalBalanceSymbol"`
	TotalBalanceFiat   string                    `json:"totalBalanceFiat"`
	Currency           string                    `json:"currency"`
	LangLogo           string                    `json:"lang_logo"`
	AllCoinMap         map[string]OTCCoinBalance `json:"allCoinMap"`
	CoinList           []OTCCoinBalance          `json:"coinList"`
}

// OTCBalances answers otc_account_list.
func (s *Service) OTCBalances(ctx context.Context, uid string, cur Currency) (OTCAccount, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return OTCAccount{}, err
	}
	op := int32(coins.PrecisionOTC)
	out := OTCAccount{TotalBalanceSymbol: valuationCoin, Currency: cur.ID, LangLogo: cur.LangLogo,
		AllCoinMap: map[string]OTCCoinBalance{}, CoinList: []OTCCoinBalance{}}
	total := zero
	for _, sym := range s.markets.OTCCoins {
		c, ok := s.cat.Coin(sym)
		if !ok {
			continue
		}
		b, sp := h.get(ledger.OTC, c.Symbol), h.get(ledger.Spot, c.Symbol)
		btc := v.in(valuationCoin, c.Symbol, b.Total())
		total = total.Add(btc)
		e := OTCCoinBalance{
			CoinSymbol: c.Symbol, Name: c.Name, Icon: c.Icon, Normal: fx(b.Available, op), CanUseAmount: fx(b.Available, op),
			Lock: fx(b.Frozen, op), Total: fx(b.Total(), op), ExchangeNormal: fx(sp.Available, op),
			BtcValuation: fx(btc, coins.PrecisionTotals),
		}
		out.AllCoinMap[c.Symbol] = e
		out.CoinList = append(out.CoinList, e)
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.TotalBalanceFiat = v.toFiat(cur, valuationCoin, total)
	return out, nil
}

// FuturesAccount is one coin of the futures account (spec §9: 8 decimals).
type FuturesAccount struct {
	Symbol         string `json:"symbol" doc:"margin coin"`
	Name           string `json:"name"`
	Icon           string `json:"icon"`
	CanUseAmount   string `json:"canUseAmount" doc:"available"`
	TotalAmount    string `json:"totalAmount"`
	TotalMargin    string `json:"totalMargin" doc:"margin held by orders and positions (frozen)"`
	IsolateMargin  string `json:"isolateMargin" doc:"margin of isolated positions (0 until futures trading)"`
	LockAmount     string `json:"lockAmount"`
	ExchangeNormal string `json:"exchangeNormal" doc:"available in the spot account (transfer source)"`
}

// FuturesBalance is get_futures_balance.
type FuturesBalance struct {
	TotalBalance       string           `json:"totalBalance"`
	TotalBalanceSymbol string           `json:"totalBalanceSymbol"`
	TotalBalanceFiat   string           `json:"totalBalanceFiat"`
	Currency           string           `json:"currency"`
	LangLogo           string           `json:"lang_logo"`
	AccountList        []FuturesAccount `json:"accountList"`
}

// FuturesBalances answers get_futures_balance. With onlyAccount the totals
// are left out (the transfer modal needs only the account list).
func (s *Service) FuturesBalances(ctx context.Context, uid string, onlyAccount bool, cur Currency) (FuturesBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return FuturesBalance{}, err
	}
	fp := int32(coins.PrecisionFutures)
	out := FuturesBalance{AccountList: []FuturesAccount{}, Currency: cur.ID, LangLogo: cur.LangLogo}
	total := zero
	for _, sym := range s.markets.FuturesCoins {
		c, ok := s.cat.Coin(sym)
		if !ok {
			continue
		}
		b, sp := h.get(ledger.Futures, c.Symbol), h.get(ledger.Spot, c.Symbol)
		u, _ := v.inUSDT(c.Symbol, b.Total())
		total = total.Add(u)
		out.AccountList = append(out.AccountList, FuturesAccount{
			Symbol: c.Symbol, Name: c.Name, Icon: c.Icon, CanUseAmount: fx(b.Available, fp), TotalAmount: fx(b.Total(), fp),
			TotalMargin: fx(b.Frozen, fp), IsolateMargin: fx(zero, fp), LockAmount: fx(b.Frozen, fp),
			ExchangeNormal: fx(sp.Available, fp),
		})
	}
	if !onlyAccount {
		out.TotalBalance = fx(total, fp)
		out.TotalBalanceSymbol = "USDT"
		out.TotalBalanceFiat = v.toFiat(cur, "USDT", total)
	}
	return out, nil
}

// EarnCoinBalance is one coin of the earn account.
type EarnCoinBalance struct {
	CoinSymbol    string `json:"coinSymbol"`
	Icon          string `json:"icon"`
	AutoStatus    int    `json:"autoStatus" doc:"1 when auto-subscribe is on"`
	Balance       string `json:"balance"`
	YearRate      string `json:"yearRate" doc:"percent"`
	TotalInterest string `json:"totalInterest"`
}

// EarnBalance is get_earn_balance.
type EarnBalance struct {
	TotalBalance       string                     `json:"totalBalance"`
	TotalBalanceSymbol string                     `json:"totalBalanceSymbol"`
	TotalBalanceFiat   string                     `json:"totalBalanceFiat"`
	InterestSymbol     string                     `json:"interestSymbol"`
	InterestYesterday  string                     `json:"interestYesterday"`
	Interest30Days     string                     `json:"interest30days"`
	Currency           string                     `json:"currency"`
	LangLogo           string                     `json:"lang_logo"`
	AllCoinMap         map[string]EarnCoinBalance `json:"allCoinMap"`
	CoinList           []EarnCoinBalance          `json:"coinList"`
}

// EarnFigures are one coin's savings figures, from the earn service.
type EarnFigures struct {
	Auto bool
	// YearRate is the coin's product's yearly rate in percent.
	YearRate                                         decimal.Decimal
	TotalInterest, InterestYesterday, Interest30Days decimal.Decimal
}

// EarnSource gives the earn view's figures per coin: one entry per coin
// that has a savings product.
type EarnSource interface {
	EarnFigures(ctx context.Context, uid string) (map[string]EarnFigures, error)
}

// EarnBalances answers get_earn_balance: every coin with a savings
// product or an earn balance, with its rate, auto-subscribe and interest;
// interest yesterday and over 30 days valued in USDT.
func (s *Service) EarnBalances(ctx context.Context, uid string, cur Currency) (EarnBalance, error) {
	h, v, err := s.load(ctx, uid)
	if err != nil {
		return EarnBalance{}, err
	}
	out := EarnBalance{TotalBalanceSymbol: valuationCoin, InterestSymbol: "USDT", Currency: cur.ID, LangLogo: cur.LangLogo,
		AllCoinMap: map[string]EarnCoinBalance{}, CoinList: []EarnCoinBalance{}}
	figs := map[string]EarnFigures{}
	var order []string
	if s.earn != nil {
		if figs, err = s.earn.EarnFigures(ctx, uid); err != nil {
			return EarnBalance{}, internal(err)
		}
		for _, c := range s.cat.List() {
			if _, ok := figs[c.Symbol]; ok {
				order = append(order, c.Symbol)
			}
		}
	} else {
		for _, ec := range s.markets.EarnCoins {
			order = append(order, ec.Coin)
		}
	}
	for _, c := range s.cat.List() {
		if _, listed := figs[c.Symbol]; !listed && !contains(order, c.Symbol) && h.get(ledger.Earn, c.Symbol).Total().IsPositive() {
			order = append(order, c.Symbol)
		}
	}
	total, yesterday, days30 := zero, zero, zero
	for _, sym := range order {
		c, ok := s.cat.Coin(sym)
		if !ok {
			continue
		}
		b := h.get(ledger.Earn, c.Symbol)
		f := figs[c.Symbol]
		total = total.Add(v.in(valuationCoin, c.Symbol, b.Total()))
		yesterday = yesterday.Add(v.in("USDT", c.Symbol, f.InterestYesterday))
		days30 = days30.Add(v.in("USDT", c.Symbol, f.Interest30Days))
		rate := f.YearRate.StringFixed(2)
		if s.earn == nil {
			rate = s.markets.earnRate(c.Symbol)
		}
		e := EarnCoinBalance{CoinSymbol: c.Symbol, Icon: c.Icon, Balance: fx(b.Total(), c.Precision), YearRate: rate,
			TotalInterest: fx(f.TotalInterest, c.Precision)}
		if f.Auto {
			e.AutoStatus = 1
		}
		out.AllCoinMap[c.Symbol] = e
		out.CoinList = append(out.CoinList, e)
	}
	out.TotalBalance = fx(total, coins.PrecisionTotals)
	out.TotalBalanceFiat = v.toFiat(cur, valuationCoin, total)
	out.InterestYesterday = fx(yesterday, coins.PrecisionTotals)
	out.Interest30Days = fx(days30, coins.PrecisionTotals)
	return out, nil
}
