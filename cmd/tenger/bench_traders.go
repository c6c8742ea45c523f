package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// The traders of `tenger bench` are the same accounts in every run against
// a server: bench-trader-<i>@bench.tenger. A run signs in to those that
// exist and signs up only the missing ones, so repeated runs send no
// e-mail codes at all, and the server's limits on codes (per IP and per
// address) and sign-ups stay as they are for everyone: a first run with
// --users 8 spends 8 of an address's 50 code sends an hour, and every
// later run none. Sign-in itself is not limited while it succeeds (only
// failures count, per IP and per account); traders are created in order,
// so a run tries to sign in until the first trader that does not exist
// (one failed sign-in, on runs that create traders) and signs up the rest
// without asking. Each trader is topped up with a whole run's funding of a
// coin whenever its available balance is below it, and orders a failed
// run left open are cancelled before the run starts.

// benchPassword is every bench trader's password.
const benchPassword = "Bench2026x"

// benchTraderEmail is trader i's address.
func benchTraderEmail(i int) string { return "bench-trader-" + strconv.Itoa(i) + "@bench.tenger" }

// codeBadCredentials is the sign-in refusal for an unknown account or a
// wrong password (apperr.CodeBadCredentials).
const codeBadCredentials = "12002"

// benchTraders signs in (or up) n traders, tops up each one's coins of
// funds, cancels their open orders of symbol (none when symbol is empty)
// and waits until the deposits are credited and no order is open. It returns their session tokens and
// how many were created.
func benchTraders(ctx context.Context, c *benchClient, n int, symbol string, funds map[string]decimal.Decimal, ref string) (tokens []string, created int, err error) {
	tokens = make([]string, n)
	var assets []benchAsset
	fresh := false
	for i := range tokens {
		email := benchTraderEmail(i)
		if !fresh {
			env, err := c.call(ctx, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": benchPassword})
			switch {
			case err != nil:
				return nil, created, err
			case env.Code == "0":
				var login struct{ Token string }
				if err := jsonUnmarshalData(env, &login); err != nil {
					return nil, created, err
				}
				tokens[i] = login.Token
			case env.Code == codeBadCredentials:
				fresh = true // this trader and the ones after it are new
			default:
				return nil, created, fmt.Errorf("sign-in of %s: code %s: %s", email, env.Code, env.Msg)
			}
		}
		if tokens[i] == "" {
			t, err := benchSignUp(ctx, c, email)
			if err != nil {
				return nil, created, fmt.Errorf("sign-up of %s: %w", email, err)
			}
			tokens[i] = t
			created++
		}
		if assets == nil {
			var list struct{ List []benchAsset }
			if err := c.ok(ctx, "/fe-ex-api/wallet/recharge_list", tokens[i], map[string]any{}, &list); err != nil {
				return nil, created, err
			}
			assets = list.List
		}
		bal, err := benchBalances(ctx, c, tokens[i])
		if err != nil {
			return nil, created, err
		}
		for coin, amount := range funds {
			if credited(bal[coin].Normal, amount) {
				continue
			}
			if err := benchDeposit(ctx, c, tokens[i], assets, coin, amount, "bench-"+email+"-"+ref); err != nil {
				return nil, created, err
			}
		}
		if symbol == "" {
			continue // no spot orders (a futures run cancels its own)
		}
		var open struct{ Count int }
		if err := c.ok(ctx, "/fe-ex-api/order/list/new", tokens[i], map[string]any{"symbol": symbol, "pageSize": 1}, &open); err != nil {
			return nil, created, err
		}
		if open.Count > 0 {
			if err := c.ok(ctx, "/fe-ex-api/order/cancel_all", tokens[i], map[string]any{"symbol": symbol}, nil); err != nil {
				return nil, created, err
			}
		}
	}
	// Wait until the deposits are credited (the watcher runs in the
	// background) and the cancelled orders are gone.
	deadline := time.Now().Add(30 * time.Second)
	for _, t := range tokens {
		for {
			bal, err := benchBalances(ctx, c, t)
			if err != nil {
				return nil, created, err
			}
			var open struct{ Count int }
			if symbol != "" {
				if err := c.ok(ctx, "/fe-ex-api/order/list/new", t, map[string]any{"symbol": symbol, "pageSize": 1}, &open); err != nil {
					return nil, created, err
				}
			}
			ready := open.Count == 0
			for coin, amount := range funds {
				ready = ready && credited(bal[coin].Normal, amount)
			}
			if ready {
				break
			}
			if time.Now().After(deadline) {
				return nil, created, errors.New("deposits were not credited (or open orders not cancelled) in time")
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return tokens, created, nil
}

// benchSignUp creates an account (one e-mail code) and signs it in.
func benchSignUp(ctx context.Context, c *benchClient, email string) (string, error) {
	if err := c.ok(ctx, "/fe-ex-api/v4/common/emailValidCode", "", map[string]any{"email": email, "operationType": 1}, nil); err != nil {
		return "", err
	}
	code, err := c.lastCode(ctx, email)
	if err != nil {
		return "", err
	}
	if err := c.ok(ctx, "/fe-ex-api/user/register", "", map[string]any{"email": email, "loginPword": benchPassword, "code": code}, nil); err != nil {
		return "", err
	}
	var login struct{ Token string }
	if err := c.ok(ctx, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": benchPassword}, &login); err != nil {
		return "", err
	}
	return login.Token, nil
}

// benchBalances is a user's spot balances by coin.
func benchBalances(ctx context.Context, c *benchClient, token string) (map[string]struct{ Normal string }, error) {
	var bal struct {
		AllCoinMap map[string]struct{ Normal string } `json:"allCoinMap"`
	}
	if err := c.ok(ctx, "/fe-ex-api/finance/v5/account_balance", token, map[string]any{}, &bal); err != nil {
		return nil, err
	}
	return bal.AllCoinMap, nil
}

// benchDeposit funds a user with amount of coin through the simulators: a
// crypto coin by a chain deposit on its first deposit chain, the fiat by
// an incoming bank transfer referenced with the user id (bankTxID, unique
// per deposit).
func benchDeposit(ctx context.Context, c *benchClient, token string, assets []benchAsset, coin string, amount decimal.Decimal, bankTxID string) error {
	i := slices.IndexFunc(assets, func(a benchAsset) bool { return a.Code == coin })
	switch {
	case i < 0:
		return fmt.Errorf("%s is not open for deposits", coin)
	case assets[i].IsFiat:
		var me struct{ ID string }
		if err := c.ok(ctx, "/fe-ex-api/common/user_info", token, map[string]any{}, &me); err != nil {
			return err
		}
		return c.ok(ctx, "/dev/bank/incoming", "", map[string]any{"amount": amount.String(), "reference": me.ID, "bankTxId": bankTxID}, nil)
	case len(assets[i].Chains) == 0:
		return fmt.Errorf("%s has no deposit chain", coin)
	default:
		chain := assets[i].Chains[0].Name
		var addr struct {
			AddressLong string `json:"addressLong"`
		}
		if err := c.ok(ctx, "/fe-ex-api/wallet/get_charge_address", token, map[string]any{"symbol": coin, "chain": chain}, &addr); err != nil {
			return err
		}
		if err := c.ok(ctx, "/dev/chain/deposit", "", map[string]any{"coin": coin, "chain": chain, "address": addr.AddressLong, "amount": amount.String()}, nil); err != nil {
			return err
		}
		return c.ok(ctx, "/dev/chain/mine", "", map[string]any{"chain": chain, "blocks": 64}, nil)
	}
}

// jsonUnmarshalData decodes an answer's data.
func jsonUnmarshalData(env benchAnswer, out any) error {
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("answer data: %w", err)
	}
	return nil
}
