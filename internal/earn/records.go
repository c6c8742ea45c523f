package earn

import (
	"context"
	"fmt"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// The finance records: one item per money event of a user's savings,
// written in the same transaction as the money, newest first.
//
//	pk "EARNLOG#<uid>"  sk "<at ms, 13 digits>#<id>"

// Record types.
const (
	LogSubscribe      = "subscribe"
	LogRedeemFast     = "redeem_fast"
	LogRedeemStandard = "redeem_standard"
	LogInterest       = "interest"
	LogPayout         = "payout"

	LogStake        = "stake"
	LogStakeReward  = "stake_reward"
	LogStakeRelease = "stake_release"
	LogStakeRedeem  = "stake_redeem"

	LogCommit     = "launchpad_commit"
	LogAllocation = "launchpad_tokens"

	LogLoanOpen        = "loan_open"
	LogLoanRepay       = "loan_repay"
	LogLoanCollateral  = "loan_collateral"
	LogLoanLiquidation = "loan_liquidation"
)

// RecordTypes are every record type, for filters.
var RecordTypes = []string{LogSubscribe, LogRedeemFast, LogRedeemStandard, LogInterest, LogPayout, LogStake, LogStakeReward,
	LogStakeRelease, LogStakeRedeem, LogCommit, LogAllocation, LogLoanOpen, LogLoanRepay, LogLoanCollateral, LogLoanLiquidation}

// logEntry is one record.
type logEntry struct {
	ID, Type, Product, Coin, Amount string
	Day                             Day
	At                              int64
}

func logPK(uid string) string { return "EARNLOG#" + uid }

func logItem(uid string, e logEntry) store.Item {
	return store.Item{store.AttrPK: logPK(uid), store.AttrSK: fmt.Sprintf("%013d#%s", e.At, e.ID), "id": e.ID, "type": e.Type,
		"prod": e.Product, "coin": e.Coin, "amount": e.Amount, "day": e.Day, "at": e.At}
}

// Record is one finance record as the records page shows it.
type Record struct {
	ID         string `json:"id"`
	Type       string `json:"type" doc:"savings: subscribe, redeem_fast, redeem_standard (paid out with the next day's settlement), interest, payout (a standard redemption paid into spot); staking: stake, stake_reward, stake_release (the principal back at maturity), stake_redeem (ended early: the principal less the rewards paid); launchpad: launchpad_commit, launchpad_tokens (the tokens allocated); loans: loan_open, loan_repay, loan_collateral (added; negative: taken back), loan_liquidation (collateral sold)"`
	Product    string `json:"projectId"`
	CoinSymbol string `json:"coinSymbol"`
	Amount     string `json:"amount"`
	Date       string `json:"date" doc:"the UTC day it belongs to (interest: the day it was earned)"`
	Ctime      int64  `json:"ctime" doc:"Unix ms"`
}

// RecordPage is a page of records.
type RecordPage struct {
	List  []Record `json:"list"`
	Count int      `json:"count" doc:"records on this page"`
	// Next is the cursor of the next page; empty when this is the last.
	Next string `json:"next"`
}

// MaxPageSize bounds a page of records.
const MaxPageSize = 100

// Records lists a user's finance records, newest first, optionally of one
// type and one coin. cursor continues a previous page.
func (s *Service) Records(ctx context.Context, uid, typ, coin, cursor string, size int) (RecordPage, error) {
	if uid == "" {
		return RecordPage{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if size <= 0 || size > MaxPageSize {
		size = 20
	}
	coin = strings.ToUpper(strings.TrimSpace(coin))
	q := store.Query{PK: logPK(uid), Desc: true, Limit: size, Cursor: cursor}
	out := RecordPage{List: []Record{}}
	for len(out.List) < size {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return RecordPage{}, internal(err)
		}
		for _, it := range page.Items {
			if (typ != "" && it.Str("type") != typ) || (coin != "" && it.Str("coin") != coin) {
				continue
			}
			out.List = append(out.List, Record{ID: it.Str("id"), Type: it.Str("type"), Product: it.Str("prod"), CoinSymbol: it.Str("coin"),
				Amount: it.Str("amount"), Date: DayString(it.Int("day")), Ctime: it.Int("at")})
		}
		out.Next = page.Cursor
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	out.Count = len(out.List)
	return out, nil
}
