package earn

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Project is a savings product as lists show it (spec §3 savings project:
// id, showName, coinSymbol, logo).
type Project struct {
	ID         string        `json:"id"`
	ShowName   string        `json:"showName"`
	CoinSymbol string        `json:"coinSymbol"`
	Logo       string        `json:"logo"`
	Period     string        `json:"period" doc:"how rate is quoted: daily, weekly, monthly or yearly"`
	Rate       string        `json:"rate" doc:"percent per period (the first tier's when tiered)"`
	YearRate   string        `json:"yearRate" doc:"the first tier's rate per year, percent"`
	Tiers      []ProjectTier `json:"tiers"`
	MinAmount  string        `json:"minAmount"`
	MaxPerUser string        `json:"maxPerUser" doc:"empty: no cap"`
	Precision  int32         `json:"precision" doc:"decimals of an amount"`
	Open       bool          `json:"open" doc:"takes new subscriptions"`
}

// ProjectTier is one tier of a tiered product's rates.
type ProjectTier struct {
	UpTo     string `json:"upTo" doc:"the tier covers the balance up to this amount; empty for the rest"`
	Rate     string `json:"rate" doc:"percent per period"`
	YearRate string `json:"yearRate" doc:"percent per year"`
}

func (s *Service) project(p SavingsProduct, lang string) (Project, bool) {
	c, ok := s.coins.Coin(p.Coin)
	if !ok {
		return Project{}, false
	}
	out := Project{Tiers: []ProjectTier{}, ID: p.ID, ShowName: p.Name(lang), CoinSymbol: p.Coin, Logo: c.Icon, Period: string(p.Period),
		Rate: p.Rate.String(), YearRate: p.YearRate().StringFixed(2), MinAmount: p.MinAmount.StringFixed(c.Precision),
		Precision: c.Precision, Open: p.Open}
	if len(p.Tiers) > 0 {
		out.Rate = p.Tiers[0].Rate.String()
	}
	if p.MaxPerUser.IsPositive() {
		out.MaxPerUser = p.MaxPerUser.StringFixed(c.Precision)
	}
	for _, t := range p.Tiers {
		var row ProjectTier
		if t.UpTo.IsPositive() {
			row.UpTo = t.UpTo.StringFixed(c.Precision)
		}
		row.Rate = t.Rate.String()
		if y, err := APR(t.Rate, p.Period); err == nil {
			row.YearRate = y.StringFixed(2)
		}
		out.Tiers = append(out.Tiers, row)
	}
	return out, true
}

// Projects lists the savings products (get_project_list, projectPage).
func (s *Service) Projects(ctx context.Context, lang string) ([]Project, error) {
	all, err := s.SavingsProducts(ctx)
	if err != nil {
		return nil, internal(err)
	}
	out := make([]Project, 0, len(all))
	for _, p := range all {
		if pr, ok := s.project(p, lang); ok {
			out = append(out, pr)
		}
	}
	return out, nil
}

// Holding is a user's position in a product as the savings page shows it.
type Holding struct {
	Project
	Amount           string `json:"amount" doc:"held in the product (interest paid included)"`
	Earning          string `json:"earning" doc:"the part earning today"`
	Pending          string `json:"pending" doc:"subscribed today: earns from the next UTC day"`
	Redeemable       string `json:"redeemable"`
	Redeeming        string `json:"redeeming" doc:"asked for standard redemption: paid out with the next day's settlement"`
	RedeemArriveDate string `json:"redeemArriveDate" doc:"UTC date the standard redemption reaches spot; empty when none waits"`
	// Today is the earn service's UTC date; StandardArriveDate when a
	// standard redemption asked now would reach spot.
	Today              string `json:"today" doc:"the earn service's UTC date"`
	StandardArriveDate string `json:"standardArriveDate" doc:"UTC date a standard redemption asked now reaches spot"`
	TotalInterest      string `json:"totalInterest"`
	YesterdayInt       string `json:"interestYesterday"`
	AutoStatus         int    `json:"autoStatus" doc:"1 when auto-subscribe is on"`
	// TodayInterest is what today earns on what earns now (paid after the
	// day ends; a fast redemption today lowers it).
	TodayInterest string `json:"estimatedInterestToday"`
}

// Holdings lists the user's savings: every product, held or not.
func (s *Service) Holdings(ctx context.Context, uid, lang string) ([]Holding, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	all, err := s.SavingsProducts(ctx)
	if err != nil {
		return nil, internal(err)
	}
	mine, err := s.positions(ctx, uid)
	if err != nil {
		return nil, internal(err)
	}
	today := DayOf(s.now())
	out := make([]Holding, 0, len(all))
	for _, p := range all {
		pj, ok := s.project(p, lang)
		if !ok {
			continue
		}
		pr, err := s.productOf(p)
		if err != nil {
			return nil, internal(err)
		}
		pos := mine[p.ID]
		if pos == nil {
			pos = newPosition(uid, p.ID, today)
		}
		// The view shows the position as its settlement will: days not
		// settled yet are worked out on a copy (nothing is written).
		v := *pos
		for v.paid < today-1 {
			if _, _, err := v.settleDay(v.paid+1, pr.tiers); err != nil {
				return nil, internal(err)
			}
		}
		if v.fresh > 0 && v.freshDay < today {
			v.elig += v.fresh
			v.fresh = 0
		}
		prec := pr.coin.Precision
		h := Holding{Project: pj, Amount: fixed(v.amt, prec), Earning: fixed(v.elig, prec), Pending: fixed(v.fresh, prec),
			Redeemable: fixed(v.redeemable(), prec), Redeeming: fixed(v.red, prec), TotalInterest: fixed(v.tot, prec),
			YesterdayInt: fixed(0, prec), Today: DayString(today), StandardArriveDate: DayString(today + 1)}
		if v.lastDay == today-1 {
			h.YesterdayInt = fixed(v.last, prec)
		}
		if v.red > 0 {
			h.RedeemArriveDate = DayString(v.redDay + 1)
		}
		if v.auto {
			h.AutoStatus = 1
		}
		est, _ := DailyInterest(v.elig, pr.tiers)
		h.TodayInterest = fixed(est, prec)
		out = append(out, h)
	}
	return out, nil
}

// positions reads a user's positions by product id.
func (s *Service) positions(ctx context.Context, uid string) (map[string]*position, error) {
	out := map[string]*position{}
	q := store.Query{PK: earnPK(uid), SK: store.SKCond{Kind: store.SKPrefix, A: "SAV#"}}
	for {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out[productOfKey(it.Key().SK)] = positionOf(it)
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// CoinSummary is what the wallet's earn view shows of one coin.
type CoinSummary struct {
	Auto              bool
	YearRate          decimal.Decimal
	TotalInterest     decimal.Decimal
	InterestYesterday decimal.Decimal
	Interest30Days    decimal.Decimal
}

// Summary is the wallet's earn view's figures per coin: auto-subscribe,
// the product's yearly rate, the interest paid in all, yesterday and over
// the last 30 days.
func (s *Service) Summary(ctx context.Context, uid string) (map[string]CoinSummary, error) {
	hs, err := s.Holdings(ctx, uid, "")
	if err != nil {
		return nil, err
	}
	out := map[string]CoinSummary{}
	for _, h := range hs {
		out[h.CoinSymbol] = CoinSummary{Auto: h.AutoStatus == 1, YearRate: decimal.RequireFromString(h.YearRate),
			TotalInterest: decimal.RequireFromString(h.TotalInterest), InterestYesterday: decimal.RequireFromString(h.YesterdayInt),
			Interest30Days: decimal.Zero}
	}
	since := DayOf(s.now()) - 30
	err = store.EachLive(ctx, s.st, store.Query{PK: logPK(uid), Desc: true,
		SK: store.SKCond{Kind: store.SKGe, A: fmt.Sprintf("%013d", DayStart(since).UnixMilli())}}, s.now(), func(it store.Item) {
		if it.Str("type") != LogInterest || it.Int("day") < since {
			return
		}
		c := strings.ToUpper(it.Str("coin"))
		cs := out[c]
		if a, err := decimal.NewFromString(it.Str("amount")); err == nil {
			cs.Interest30Days = cs.Interest30Days.Add(a)
		}
		out[c] = cs
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}
