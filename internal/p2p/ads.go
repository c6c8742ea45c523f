package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Ad is a merchant's ad as stored and shown.
type Ad struct {
	ID   string `json:"id"`
	UID  string `json:"uid" doc:"the merchant"`
	Nick string `json:"nickName"`
	// Side is the merchant's: SELL offers coins for fiat, BUY asks for them.
	Side      string `json:"side" doc:"the merchant's side: SELL (takers buy) or BUY (takers sell)"`
	Coin      string `json:"coinSymbol"`
	Fiat      string `json:"paySymbol"`
	PriceType string `json:"priceType" doc:"fixed or floating"`
	// Price is the fixed price, or for a floating ad the price now.
	Price     decimal.Decimal `json:"price" doc:"fiat per coin; a floating ad's current price"`
	MarginPct decimal.Decimal `json:"priceRate" doc:"a floating ad's percentage of the reference rate (70-130)"`
	Remaining decimal.Decimal `json:"volume" doc:"coins the ad still offers or asks for"`
	MinFiat   decimal.Decimal `json:"minTrade" doc:"smallest order, in fiat"`
	MaxFiat   decimal.Decimal `json:"maxTrade" doc:"largest order, in fiat"`
	Methods   []Method        `json:"payments"`
	PayMin    int             `json:"limitTime" doc:"minutes the buyer has to pay"`
	Terms     string          `json:"description"`
	KYC       bool            `json:"kycRequired" doc:"takers must be verified"`
	Status    string          `json:"status" doc:"open or closed"`
	Created   int64           `json:"ctime"`
	Updated   int64           `json:"mtime"`
	// Merchant is the merchant's record, filled in by Search and AdDetail.
	Merchant *Stats `json:"merchant,omitempty"`

	ever, ver int64
}

// AdInput is wanted_save: a new ad (ID empty) or a change of one.
type AdInput struct {
	ID         string
	Side       string
	Coin       string
	Fiat       string
	PriceType  string
	Price      decimal.Decimal
	MarginPct  decimal.Decimal
	Amount     decimal.Decimal
	MinFiat    decimal.Decimal
	MaxFiat    decimal.Decimal
	MethodIDs  []string
	PayMinutes int
	Terms      string
	KYC        bool
}

// opMerchant names the condition that the ad's owner is a merchant with room for one more ad.
const opMerchant = "merchant"

func adField(what string) error { return apperr.New(apperr.CodeP2PAdField, what) }

// check validates the input's own fields.
func (s *Service) checkAd(in *AdInput) error {
	in.Side, in.Coin, in.Fiat = strings.ToUpper(in.Side), strings.ToUpper(in.Coin), strings.ToUpper(in.Fiat)
	if in.Side != Buy && in.Side != Sell {
		return adField("side")
	}
	scale, ok := s.o.Coins[in.Coin]
	if !ok {
		return adField("coin")
	}
	if !slices.Contains(Fiats, in.Fiat) {
		return adField("fiat")
	}
	switch in.PriceType {
	case PriceFixed:
		if !in.Price.IsPositive() || in.Price.Exponent() < -FiatScale {
			return adField("price")
		}
		in.MarginPct = decimal.Zero
	case PriceFloating:
		if in.MarginPct.LessThan(decimal.NewFromInt(MinMarginPct)) || in.MarginPct.GreaterThan(decimal.NewFromInt(MaxMarginPct)) || in.MarginPct.Exponent() < -2 {
			return adField("priceRate")
		}
		in.Price = decimal.Zero
	default:
		return adField("priceType")
	}
	if !in.Amount.IsPositive() || in.Amount.Exponent() < -scale {
		return adField("volume")
	}
	if !in.MinFiat.IsPositive() || !in.MaxFiat.IsPositive() || in.MinFiat.GreaterThan(in.MaxFiat) ||
		in.MinFiat.Exponent() < -FiatScale || in.MaxFiat.Exponent() < -FiatScale {
		return adField("minTrade/maxTrade")
	}
	if !slices.Contains(PayMinutes, in.PayMinutes) {
		return adField("limitTime")
	}
	if len(in.MethodIDs) == 0 || len(in.MethodIDs) > 5 {
		return adField("payments")
	}
	terms, ok := cleanText(in.Terms, MaxTermsLen)
	if !ok {
		return adField("description")
	}
	in.Terms = terms
	return nil
}

// SaveAd creates or changes the caller's ad (wanted_save).
func (s *Service) SaveAd(ctx context.Context, uid string, in AdInput) (Ad, error) {
	if err := s.checkAd(&in); err != nil {
		return Ad{}, err
	}
	methods, err := s.o.Methods.Methods(ctx, uid, in.MethodIDs)
	if err != nil {
		return Ad{}, err
	}
	var a Ad
	if in.ID == "" {
		a, err = s.createAd(ctx, uid, in, methods)
	} else {
		a, err = s.changeAd(ctx, uid, in, methods)
	}
	if err == nil {
		a.Nick = s.nick(ctx, map[string]string{}, uid)
	}
	return a, err
}

func (s *Service) createAd(ctx context.Context, uid string, in AdInput, methods []Method) (Ad, error) {
	// Read first for a clear answer; the transaction's condition holds it.
	if p, err := s.profile(ctx, uid); err != nil {
		return Ad{}, err
	} else if p.Merchant != MerchantApproved {
		return Ad{}, apperr.New(apperr.CodeP2PNotMerchant)
	}
	now := s.o.Now()
	a := Ad{ID: newID(now), UID: uid, Side: in.Side, Coin: in.Coin, Fiat: in.Fiat, PriceType: in.PriceType,
		Price: in.Price, MarginPct: in.MarginPct, Remaining: in.Amount, MinFiat: in.MinFiat, MaxFiat: in.MaxFiat,
		Methods: methods, PayMin: in.PayMinutes, Terms: in.Terms, KYC: in.KYC, Status: AdOpen,
		Created: ms(now), Updated: ms(now), ever: 1, ver: 1}
	ops := []store.Op{
		store.UpdateOp(profileKey(uid), store.NewUpdate().AddInt("ads", 1),
			store.And(store.Eq("merchant", MerchantApproved),
				store.Or(store.NotExists("ads"), store.Compare("ads", store.CmpLt, int64(MaxOpenAds))))).Named(opMerchant),
		store.PutOp(a.item(), store.ItemNotExists()),
	}
	if a.Side == Sell {
		_, err := s.o.Ledger.Post(ctx, ledger.Posting{ID: "p2p:ad:" + a.ID + ":open", Reason: "p2p_ad_hold",
			Legs: []ledger.Leg{ledger.HoldLeg(otc(uid), a.Coin, a.Remaining)}, Meta: map[string]string{"ad": a.ID}, Extra: ops})
		if err != nil {
			return Ad{}, s.adCreateError(ctx, uid, a.Coin, failedName(err, ops), err)
		}
	} else if err := s.o.Store.Transact(ctx, ops); err != nil {
		return Ad{}, s.adCreateError(ctx, uid, a.Coin, failedName(err, ops), err)
	}
	s.o.Log.Info().Str("ad", a.ID).Str("uid", uid).Str("side", a.Side).Str("coin", a.Coin).Msg("p2p ad opened")
	return a, nil
}

// adCreateError names why an ad was refused: not a merchant, too many ads,
// or not enough coins to hold.
func (s *Service) adCreateError(ctx context.Context, uid, coin, failed string, err error) error {
	if errors.Is(err, ledger.ErrInsufficient) {
		return apperr.New(apperr.CodeP2PInsufficient, coin)
	}
	if failed == opMerchant {
		p, perr := s.profile(ctx, uid)
		if perr != nil {
			return internal(perr)
		}
		if p.Merchant != MerchantApproved {
			return apperr.New(apperr.CodeP2PNotMerchant)
		}
		return apperr.New(apperr.CodeP2PTooManyAds, MaxOpenAds)
	}
	return internal(err)
}

func (s *Service) changeAd(ctx context.Context, uid string, in AdInput, methods []Method) (Ad, error) {
	a, err := s.ownAd(ctx, uid, in.ID)
	if err != nil {
		return Ad{}, err
	}
	if a.Status != AdOpen {
		return Ad{}, apperr.New(apperr.CodeP2PAdClosed)
	}
	if a.Side != in.Side || a.Coin != in.Coin || a.Fiat != in.Fiat {
		return Ad{}, apperr.New(apperr.CodeP2PAdOpenOrders)
	}
	now := ms(s.o.Now())
	mj, _ := json.Marshal(methods)
	upd := store.NewUpdate().Set("priceType", in.PriceType).Set("price", in.Price).Set("margin", in.MarginPct).
		Set("remaining", in.Amount).Set("minFiat", in.MinFiat).Set("maxFiat", in.MaxFiat).Set("methods", string(mj)).
		Set("payMin", int64(in.PayMinutes)).Set("terms", in.Terms).Set("kyc", in.KYC).Set("updated", now).
		Set("ever", a.ever+1).Set(store.AttrVersion, a.ver+1)
	op := store.UpdateOp(adKey(a.ID), upd, store.And(store.VersionIs(a.ver), store.Eq("status", AdOpen)))
	delta := in.Amount.Sub(a.Remaining)
	if a.Side == Sell && !delta.IsZero() {
		leg := ledger.HoldLeg(otc(uid), a.Coin, delta)
		if delta.IsNegative() {
			leg = ledger.ReleaseLeg(otc(uid), a.Coin, delta.Neg())
		}
		_, err = s.o.Ledger.Post(ctx, ledger.Posting{ID: "p2p:ad:" + a.ID + ":e" + itoa(a.ever+1), Reason: "p2p_ad_change",
			Legs: []ledger.Leg{leg}, Meta: map[string]string{"ad": a.ID}, Extra: []store.Op{op}})
	} else {
		err = s.o.Store.Transact(ctx, []store.Op{op})
	}
	switch {
	case errors.Is(err, ledger.ErrInsufficient):
		return Ad{}, apperr.New(apperr.CodeP2PInsufficient, a.Coin)
	case errors.Is(err, store.ErrConditionFailed):
		return Ad{}, apperr.New(apperr.CodeP2PAdChanged)
	case err != nil:
		return Ad{}, internal(err)
	}
	return s.ownAd(ctx, uid, a.ID)
}

// CloseAd closes the caller's ad (close_wanted): a SELL ad's remaining
// coins return to the available balance; orders already open go on.
func (s *Service) CloseAd(ctx context.Context, uid, id string) error {
	for attempt := 0; ; attempt++ {
		a, err := s.ownAd(ctx, uid, id)
		if err != nil {
			return err
		}
		if a.Status != AdOpen {
			return nil
		}
		upd := store.NewUpdate().Set("status", AdClosed).Set("remaining", decimal.Zero).Set("updated", ms(s.o.Now())).
			Set(store.AttrVersion, a.ver+1).Remove(store.AttrGSI1PK).Remove(store.AttrGSI1SK)
		ops := []store.Op{
			store.UpdateOp(adKey(id), upd, store.VersionIs(a.ver)),
			store.UpdateOp(profileKey(uid), store.NewUpdate().AddInt("ads", -1), store.ItemExists()),
		}
		if a.Side == Sell && a.Remaining.IsPositive() {
			_, err = s.o.Ledger.Post(ctx, ledger.Posting{ID: "p2p:ad:" + id + ":close", Reason: "p2p_ad_release",
				Legs: []ledger.Leg{ledger.ReleaseLeg(otc(uid), a.Coin, a.Remaining)}, Meta: map[string]string{"ad": id}, Extra: ops})
		} else {
			err = s.o.Store.Transact(ctx, ops)
		}
		if errors.Is(err, store.ErrConditionFailed) && attempt < 5 {
			continue // an order moved the remaining meanwhile: read it again
		}
		if err == nil {
			s.o.Log.Info().Str("ad", id).Str("uid", uid).Msg("p2p ad closed")
		}
		return internal(err)
	}
}

// ownAd reads an ad of the caller; another user's answers not found.
func (s *Service) ownAd(ctx context.Context, uid, id string) (Ad, error) {
	a, err := s.readAd(ctx, id)
	if err != nil {
		return Ad{}, err
	}
	if a.UID != uid {
		return Ad{}, apperr.New(apperr.CodeP2PAdNotFound)
	}
	return a, nil
}

func (s *Service) readAd(ctx context.Context, id string) (Ad, error) {
	if !validID(id) {
		return Ad{}, apperr.New(apperr.CodeP2PAdNotFound)
	}
	it, err := s.o.Store.Get(ctx, adKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Ad{}, apperr.New(apperr.CodeP2PAdNotFound)
	}
	if err != nil {
		return Ad{}, internal(err)
	}
	return adOf(it), nil
}

// AdDetail is wanted_detail: an ad with its current price and its merchant.
func (s *Service) AdDetail(ctx context.Context, id string) (Ad, error) {
	a, err := s.readAd(ctx, id)
	if err != nil {
		return Ad{}, err
	}
	if err := s.pricing(ctx, &a); err != nil && a.Status == AdOpen {
		return Ad{}, err
	}
	st, err := s.Stats(ctx, a.UID)
	if err != nil {
		return Ad{}, err
	}
	a.Merchant, a.Nick = &st, st.Nick
	return a, nil
}

// pricing sets a floating ad's current price.
func (s *Service) pricing(ctx context.Context, a *Ad) error {
	if a.PriceType != PriceFloating {
		return nil
	}
	p, err := s.floatingPrice(ctx, a.Coin, a.Fiat, a.MarginPct)
	if err != nil {
		return err
	}
	a.Price = p
	return nil
}

func (s *Service) floatingPrice(ctx context.Context, coin, fiat string, margin decimal.Decimal) (decimal.Decimal, error) {
	if s.o.Rates == nil {
		return decimal.Zero, apperr.New(apperr.CodeP2PNoPrice, coin, fiat)
	}
	r, ok, err := s.o.Rates.Rate(ctx, coin, fiat)
	if err != nil {
		return decimal.Zero, internal(err)
	}
	if !ok || !r.IsPositive() {
		return decimal.Zero, apperr.New(apperr.CodeP2PNoPrice, coin, fiat)
	}
	return r.Mul(margin).Div(decimal.NewFromInt(100)).Round(FiatScale), nil
}

// SearchFilter is otc/search: what a taker looks for.
type SearchFilter struct {
	// Side is the taker's: BUY lists SELL ads, cheapest first.
	Side string
	Coin string
	Fiat string
	// Amount, when positive, keeps ads whose limits admit that fiat amount.
	Amount decimal.Decimal
	// Method, when set, keeps ads that accept that payment kind.
	Method   string
	Page     int
	PageSize int
}

// Search lists open ads for a taker: best price first, then oldest.
func (s *Service) Search(ctx context.Context, caller string, f SearchFilter) ([]Ad, int, error) {
	f.Side, f.Coin, f.Fiat = strings.ToUpper(f.Side), strings.ToUpper(f.Coin), strings.ToUpper(f.Fiat)
	adSide := Sell
	switch f.Side {
	case Buy:
	case Sell:
		adSide = Buy
	default:
		return nil, 0, adField("side")
	}
	if _, ok := s.o.Coins[f.Coin]; !ok {
		return nil, 0, adField("coin")
	}
	if !slices.Contains(Fiats, f.Fiat) {
		return nil, 0, adField("fiat")
	}
	blocked, err := s.blockedSet(ctx, caller)
	if err != nil {
		return nil, 0, err
	}
	var ads []Ad
	q := store.Query{Index: store.IndexGSI1, PK: adsIndexPK(f.Coin, f.Fiat, adSide), Limit: 200}
	err = store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) {
		a := adOf(it)
		if a.Status != AdOpen || !a.Remaining.IsPositive() || blocked[a.UID] {
			return
		}
		if f.Method != "" && !slices.ContainsFunc(a.Methods, func(m Method) bool { return m.Kind == f.Method }) {
			return
		}
		ads = append(ads, a)
	})
	if err != nil {
		return nil, 0, internal(err)
	}
	out := ads[:0]
	for _, a := range ads {
		if s.pricing(ctx, &a) != nil {
			continue // no reference rate now: a floating ad cannot be priced
		}
		// What an order can be at most: the ad's limit or what it has left.
		maxNow := decimal.Min(a.MaxFiat, a.Remaining.Mul(a.Price).RoundDown(FiatScale))
		if maxNow.LessThan(a.MinFiat) {
			continue
		}
		if f.Amount.IsPositive() && (f.Amount.LessThan(a.MinFiat) || f.Amount.GreaterThan(maxNow)) {
			continue
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Price.Equal(out[j].Price) {
			if adSide == Sell {
				return out[i].Price.LessThan(out[j].Price)
			}
			return out[i].Price.GreaterThan(out[j].Price)
		}
		return out[i].Created < out[j].Created
	})
	total := len(out)
	page := pageOf(out, f.Page, f.PageSize)
	stats := map[string]*Stats{} // a merchant's ads on one page share one read of the merchant
	for i := range page {
		st, ok := stats[page[i].UID]
		if !ok {
			v, err := s.Stats(ctx, page[i].UID)
			if err != nil {
				return nil, 0, err
			}
			st = &v
			stats[page[i].UID] = st
		}
		page[i].Merchant, page[i].Nick = st, st.Nick
	}
	return page, total, nil
}

// PersonAds lists a user's ads (person_ads): the owner sees closed ones
// too, anyone else only the open ones.
func (s *Service) PersonAds(ctx context.Context, caller, uid string, page, size int) ([]Ad, int, error) {
	var ads []Ad
	q := store.Query{Index: store.IndexGSI2, PK: myAdsIndexPK(uid), Desc: true}
	err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) {
		a := adOf(it)
		if caller == uid || a.Status == AdOpen {
			ads = append(ads, a)
		}
	})
	if err != nil {
		return nil, 0, internal(err)
	}
	out := pageOf(ads, page, size)
	for i := range out {
		if out[i].Status == AdOpen {
			_ = s.pricing(ctx, &out[i])
		}
	}
	return out, len(ads), nil
}

func pageOf[T any](xs []T, page, size int) []T {
	if size <= 0 || size > 50 {
		size = 20
	}
	if page <= 0 {
		page = 1
	}
	from := (page - 1) * size
	if from >= len(xs) {
		return []T{}
	}
	return slices.Clone(xs[from:min(len(xs), from+size)])
}

func (a Ad) item() store.Item {
	k := adKey(a.ID)
	mj, _ := json.Marshal(a.Methods)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": a.ID, "uid": a.UID, "side": a.Side, "coin": a.Coin, "fiat": a.Fiat,
		"priceType": a.PriceType, "price": a.Price, "margin": a.MarginPct, "remaining": a.Remaining,
		"minFiat": a.MinFiat, "maxFiat": a.MaxFiat, "methods": string(mj), "payMin": int64(a.PayMin), "terms": a.Terms,
		"kyc": a.KYC, "status": a.Status, "created": a.Created, "updated": a.Updated, "ever": a.ever,
		store.AttrVersion: a.ver,
		store.AttrGSI2PK:  myAdsIndexPK(a.UID), store.AttrGSI2SK: sortKey(a.Created, a.ID),
	}
	if a.Status == AdOpen {
		it[store.AttrGSI1PK], it[store.AttrGSI1SK] = adsIndexPK(a.Coin, a.Fiat, a.Side), sortKey(a.Created, a.ID)
	}
	return it
}

func adOf(it store.Item) Ad {
	a := Ad{ID: it.Str("id"), UID: it.Str("uid"), Side: it.Str("side"), Coin: it.Str("coin"), Fiat: it.Str("fiat"),
		PriceType: it.Str("priceType"), Price: it.Dec("price"), MarginPct: it.Dec("margin"), Remaining: it.Dec("remaining"),
		MinFiat: it.Dec("minFiat"), MaxFiat: it.Dec("maxFiat"), PayMin: int(it.Int("payMin")), Terms: it.Str("terms"),
		KYC: it.Bool("kyc"), Status: it.Str("status"), Created: it.Int("created"), Updated: it.Int("updated"),
		ever: it.Int("ever"), ver: it.Int(store.AttrVersion)}
	_ = json.Unmarshal([]byte(it.Str("methods")), &a.Methods)
	if a.Methods == nil {
		a.Methods = []Method{}
	}
	return a
}

// ReferencePrice is the rate a floating price of 100% would be (otc/rates).
func (s *Service) ReferencePrice(ctx context.Context, coin, fiat string) (decimal.Decimal, error) {
	if _, ok := s.o.Coins[coin]; !ok {
		return decimal.Zero, adField("coin")
	}
	return s.floatingPrice(ctx, coin, fiat, decimal.NewFromInt(100))
}
