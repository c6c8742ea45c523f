package competition

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// The shapes of the competition routes (/fe-co-api). Amounts are decimal
// strings in the competition's coin, ROI a percentage with 2 decimals,
// times Unix ms.

// DisplayPlaces are the decimals of the equity and profit the pages show.
const DisplayPlaces = 2

// Paging of the ranking.
const (
	DefaultTop      = 10
	MaxTop          = 100
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// PrizeView is one row of the prize table.
type PrizeView struct {
	RankFrom int    `json:"rankFrom"`
	RankTo   int    `json:"rankTo"`
	Amount   string `json:"amount" doc:"each rank's prize, in coin"`
}

// RulesView are the rules of joining.
type RulesView struct {
	KYCLevel       int    `json:"kycLevel" doc:"0 none, 1 a verified identity"`
	Mobile         bool   `json:"mobile" doc:"a bound mobile number is needed"`
	MinBalance     string `json:"minBalance" doc:"the least futures margin balance at joining, in coin"`
	FuturesAccount bool   `json:"futuresAccount" doc:"an opened futures account is needed"`
}

// View is a competition as the pages show it.
type View struct {
	ID           string            `json:"competitionId"`
	Name         string            `json:"name" doc:"in the caller's language"`
	Description  string            `json:"description" doc:"in the caller's language"`
	Names        map[string]string `json:"names" doc:"by language: en_US, mn_MN"`
	Descriptions map[string]string `json:"descriptions"`
	StartTime    int64             `json:"startTime"`
	EndTime      int64             `json:"endTime"`
	Coin         string            `json:"coin" doc:"the margin coin: balances, profits and prizes are in it"`
	Prizes       []PrizeView       `json:"prizes"`
	PrizePool    string            `json:"prizePool" doc:"every prize together"`
	Rules        RulesView         `json:"rules"`
	State        string            `json:"state" doc:"upcoming, running, ended or settled (prizes paid)"`
	Participants int64             `json:"participants"`
	RefreshedAt  int64             `json:"refreshedAt" doc:"when the ranking was last worked out (every minute while running)"`
	SettledAt    int64             `json:"settledAt" doc:"when the prizes were paid; 0 before"`
	ServerTime   int64             `json:"serverTime"`
}

// Detail is /common/competition_detail.
type Detail struct {
	View
	SignedIn bool `json:"signedIn"`
	Joined   bool `json:"joined" doc:"the caller joined (false when signed out)"`
}

// RankRow is one rank of the ranking.
type RankRow struct {
	Rank     int64  `json:"rank"`
	NickName string `json:"nickName" doc:"masked: first and last characters"`
	ROI      string `json:"roi" doc:"percent, 2 decimals; empty for a participant with nothing at stake (ranked last)"`
	Profit   string `json:"profit" doc:"in coin: equity − initial equity − net transfers in"`
	Prize    string `json:"prize" doc:"what the rank wins; empty for none"`
}

// RankPage is /common/competition_rank_web.
type RankPage struct {
	Count       int64     `json:"count" doc:"ranks in all pages"`
	Page        int       `json:"page"`
	PageSize    int       `json:"pageSize"`
	List        []RankRow `json:"list"`
	RefreshedAt int64     `json:"refreshedAt"`
}

// UserRank is /user_rank (and /join_competition's answer): the caller's
// standing.
type UserRank struct {
	CompetitionID string `json:"competitionId"`
	Joined        bool   `json:"joined"`
	JoinedAt      int64  `json:"joinedAt"`
	NickName      string `json:"nickName"`
	Rank          int64  `json:"rank" doc:"0 until the first ranking after joining"`
	ROI           string `json:"roi" doc:"percent, 2 decimals; empty before the first ranking and with nothing at stake"`
	Profit        string `json:"profit"`
	Equity        string `json:"equity" doc:"the futures margin balance at the last ranking"`
	InitialEquity string `json:"initialEquity" doc:"the futures margin balance at joining"`
	NetTransferIn string `json:"netTransferIn" doc:"transfers into the futures account since joining, less those out"`
	Prize         string `json:"prize" doc:"what the rank wins (final once the competition has ended); empty for none"`
	PrizePaid     bool   `json:"prizePaid"`
	RefreshedAt   int64  `json:"refreshedAt"`
}

// View is the competition in lang.
func (s *Service) View(c Competition, lang string) View {
	v := View{ID: c.ID, Name: c.Name(lang), Description: c.Description(lang), Names: c.Names, Descriptions: c.Descriptions,
		StartTime: c.Start, EndTime: c.End, Coin: c.Coin, Prizes: make([]PrizeView, 0, len(c.Prizes)), PrizePool: c.PrizePool().String(),
		Rules: RulesView{KYCLevel: c.Rules.KYCLevel, Mobile: c.Rules.Mobile, MinBalance: c.Rules.MinBalance.String(),
			FuturesAccount: c.Rules.FuturesAccount},
		State: c.State(s.o.Now()), Participants: c.Participants, RefreshedAt: c.RefreshedAt, SettledAt: c.SettledAt,
		ServerTime: s.o.Now().UnixMilli()}
	if v.Names == nil {
		v.Names = map[string]string{}
	}
	if v.Descriptions == nil {
		v.Descriptions = map[string]string{}
	}
	for _, p := range c.Prizes {
		v.Prizes = append(v.Prizes, PrizeView{RankFrom: p.From, RankTo: p.To, Amount: p.Amount.String()})
	}
	return v
}

// Detail is a competition with the caller's join state (uid empty:
// signed out).
func (s *Service) Detail(ctx context.Context, id, uid, lang string) (Detail, error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{View: s.View(c, lang), SignedIn: uid != ""}
	if uid != "" {
		p, err := s.participant(ctx, c.ID, uid)
		if err != nil {
			return Detail{}, err
		}
		d.Joined = p != nil
	}
	return d, nil
}

// money is an amount as the pages show it.
func money(it store.Item, name string) string {
	d, err := decimal.NewFromString(it.Str(name))
	if err != nil {
		return ""
	}
	return d.StringFixed(DisplayPlaces)
}

// row is a rank item as a rank of the ranking.
func (s *Service) row(c Competition, it store.Item) RankRow {
	r := RankRow{Rank: it.Int("rank"), NickName: Mask(it.Str("nick")), Profit: money(it, "profit")}
	if it.Bool("ranked") {
		if roi, err := decimal.NewFromString(it.Str("roi")); err == nil {
			r.ROI = ROIPercent(roi)
		}
		if p, ok := c.PrizeFor(r.Rank); ok {
			r.Prize = p.String()
		}
	}
	return r
}

// ranks reads the rank items from..to (inclusive).
func (s *Service) ranks(ctx context.Context, c Competition, from, to int64) ([]RankRow, error) {
	out := []RankRow{}
	if to < from || from > c.Ranked {
		return out, nil
	}
	q := store.Query{PK: rankPK(c.ID), SK: store.SKRange(rankSK(from), rankSK(min(to, c.Ranked))), Limit: int(min(to-from+1, 100))}
	items, err := s.queryAll(ctx, q)
	if err != nil {
		return nil, internal(err)
	}
	for _, it := range items {
		out = append(out, s.row(c, it))
	}
	return out, nil
}

// Top is the best ranks (limit 1–100, default 10).
func (s *Service) Top(ctx context.Context, id string, limit int) ([]RankRow, error) {
	if limit <= 0 {
		limit = DefaultTop
	}
	if limit > MaxTop {
		return nil, apperr.Param(fmt.Sprintf("limit: 1 to %d", MaxTop))
	}
	c, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.ranks(ctx, c, 1, int64(limit))
}

// Ranks is a page of the ranking (page from 1, pageSize 1–100, default 20).
func (s *Service) Ranks(ctx context.Context, id string, page, size int) (RankPage, error) {
	if page <= 0 {
		page = 1
	}
	if size <= 0 {
		size = DefaultPageSize
	}
	if size > MaxPageSize {
		return RankPage{}, apperr.Param(fmt.Sprintf("pageSize: 1 to %d", MaxPageSize))
	}
	c, err := s.Get(ctx, id)
	if err != nil {
		return RankPage{}, err
	}
	from := int64(page-1)*int64(size) + 1
	list, err := s.ranks(ctx, c, from, from+int64(size)-1)
	if err != nil {
		return RankPage{}, err
	}
	return RankPage{Count: c.Ranked, Page: page, PageSize: size, List: list, RefreshedAt: c.RefreshedAt}, nil
}

// UserRank is the user's standing in a competition (Joined false when
// the user did not join).
func (s *Service) UserRank(ctx context.Context, id, uid string) (UserRank, error) {
	if uid == "" {
		return UserRank{}, apperr.New(apperr.CodeNotSignedIn)
	}
	c, err := s.Get(ctx, id)
	if err != nil {
		return UserRank{}, err
	}
	p, err := s.participant(ctx, c.ID, uid)
	if err != nil {
		return UserRank{}, err
	}
	if p == nil {
		return UserRank{CompetitionID: c.ID}, nil
	}
	return s.userRank(c, p), nil
}

func (s *Service) userRank(c Competition, p store.Item) UserRank {
	u := UserRank{CompetitionID: c.ID, Joined: true, JoinedAt: p.Int("joinedAt"), NickName: p.Str("nick"), Rank: p.Int("rank"),
		InitialEquity: money(p, "initial"), Equity: money(p, "initial"), Profit: decimal.Zero.StringFixed(DisplayPlaces),
		NetTransferIn: decimal.Zero.StringFixed(DisplayPlaces), RefreshedAt: c.RefreshedAt, PrizePaid: p.Int("paidAt") > 0}
	if p.Has("equity") {
		u.Equity, u.Profit, u.NetTransferIn = money(p, "equity"), money(p, "profit"), money(p, "netIn")
	}
	if p.Bool("ranked") {
		if roi, err := decimal.NewFromString(p.Str("roi")); err == nil {
			u.ROI = ROIPercent(roi)
		}
		if prize, ok := c.PrizeFor(u.Rank); ok && u.Rank > 0 {
			u.Prize = prize.String()
		}
	}
	if c.FinalAt > 0 {
		// The winners are fixed: the prize is the one paid (or to be).
		u.Prize = p.Str("prize")
	}
	return u
}

// OperatorRank is a rank as the operator sees it: the user and amounts in
// full.
type OperatorRank struct {
	Rank    int64
	UID     string
	Nick    string
	Ranked  bool
	ROI     decimal.Decimal
	Profit  decimal.Decimal
	Equity  decimal.Decimal
	Initial decimal.Decimal
}

// OperatorRanks are the best limit ranks of the last ranking, unmasked.
func (s *Service) OperatorRanks(ctx context.Context, id string, limit int) ([]OperatorRank, error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	out := []OperatorRank{}
	if limit <= 0 || c.Ranked == 0 {
		return out, nil
	}
	items, err := s.queryAll(ctx, store.Query{PK: rankPK(c.ID), SK: store.SKRange(rankSK(1), rankSK(min(int64(limit), c.Ranked)))})
	if err != nil {
		return nil, internal(err)
	}
	for _, it := range items {
		r := OperatorRank{Rank: it.Int("rank"), UID: it.Str("uid"), Nick: it.Str("nick"), Ranked: it.Bool("ranked")}
		for name, dst := range map[string]*decimal.Decimal{"roi": &r.ROI, "profit": &r.Profit, "equity": &r.Equity, "initial": &r.Initial} {
			if *dst, err = decimal.NewFromString(it.Str(name)); err != nil {
				return nil, internal(fmt.Errorf("rank %d: %s: %w", r.Rank, name, err))
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// Winners are the final ranking's winners and when it was worked out
// (ok false before the final refresh).
func (s *Service) Winners(ctx context.Context, id string) (win []Winner, finalAt int64, ok bool, err error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return nil, 0, false, err
	}
	finalAt, win, ok, err = s.final(ctx, c.ID)
	if err != nil {
		return nil, 0, false, internal(err)
	}
	return win, finalAt, ok, nil
}
