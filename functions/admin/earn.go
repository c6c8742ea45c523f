package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"tenger/internal/apperr"
	"tenger/internal/earn"
	"tenger/internal/store"
)

// The earn products in AWS, as `tenger earn` sets them on a data
// directory: an operator puts (creates or replaces) a savings product, a
// staking product, a launchpad sale or the crypto loans' settings, each
// checked by the earn service's own rules (earn.SavingsProduct.Check
// against the coin's precision, one savings product per coin and a
// product's coin fixed once set; a staking product's coin and term fixed;
// a sale's terms fixed once its subscription starts; the loans' LTVs
// rising), and lists them. The earn function reads them at
// each call and each scheduled run, so a change applies at once.

// earnPut puts the product the payload's "product" holds (decoded into a
// T: unknown fields refused) with put, and answers it as stored (get).
// The earn service refuses a product that breaks its rules with an error
// of its own; an error of the table comes through failingStore marked, so
// it fails the invocation (the errors alarm) while a broken rule is a
// refusal, an answer the operator reads.
func earnPut[T any](ctx context.Context, raw json.RawMessage, id func(T) string, put func(context.Context, T) error,
	get func(context.Context, string) (T, error)) (T, error) {
	var p T
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return p, apperr.Param("product: required")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, apperr.Param("product: " + err.Error())
	}
	if err := put(ctx, p); err != nil {
		return p, earnRefusal(err)
	}
	return get(ctx, id(p))
}

// earnRefusal turns an error of the earn service's put into the answer:
// a table's failure stays an error (the invocation fails), a refusal with
// a code of the catalogue keeps it, any other is the rule the product
// broke.
func earnRefusal(err error) error {
	var sf storeFailure
	if errors.As(err, &sf) {
		return err
	}
	if ae := apperr.As(err); ae.Entry.Code != apperr.CodeInternal {
		return ae
	}
	return apperr.Param("product: " + err.Error())
}

// earnList answers a list, empty rather than null.
func earnList[T any](list []T, err error) ([]T, error) {
	if list == nil {
		list = []T{}
	}
	return list, err
}

// runEarn dispatches the earn operations; ok is false for another op.
func (o *ops) runEarn(ctx context.Context, r Request) (result any, ok bool, err error) {
	svc := o.earn
	savingsID := func(p earn.SavingsProduct) string { return p.ID }
	stakingID := func(p earn.StakingProduct) string { return p.ID }
	saleID := func(p earn.LaunchProject) string { return p.ID }
	switch r.Op {
	case "savings.put":
		result, err = earnPut(ctx, r.Product, savingsID, svc.PutSavingsProduct, svc.SavingsProduct)
	case "savings.list":
		result, err = earnList(svc.SavingsProducts(ctx))
	case "staking.put":
		result, err = earnPut(ctx, r.Product, stakingID, svc.PutStakingProduct, svc.StakingProduct)
	case "staking.list":
		result, err = earnList(svc.StakingProducts(ctx))
	case "launchpad.put":
		result, err = earnPut(ctx, r.Product, saleID, svc.PutLaunchProject, func(ctx context.Context, id string) (earn.LaunchProject, error) {
			list, err := svc.LaunchProjects(ctx)
			return pick(list, err, id, saleID)
		})
	case "launchpad.list":
		result, err = earnList(svc.LaunchProjects(ctx))
	case "loans.put":
		result, err = earnPut(ctx, r.Product, func(earn.LoanConfig) string { return "" }, svc.PutLoanConfig,
			func(ctx context.Context, _ string) (earn.LoanConfig, error) { return svc.LoanSettings(ctx) })
	case "loans.show":
		result, err = svc.LoanSettings(ctx)
	default:
		return nil, false, nil
	}
	return result, true, err
}

// pick is the item of a list with an id (the sales are read as a list).
func pick[T any](list []T, err error, id string, idOf func(T) string) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	for _, p := range list {
		if idOf(p) == id {
			return p, nil
		}
	}
	return zero, errors.New("admin: the product just put is not listed: " + id)
}

// storeFailure marks an error the table answered (not a missing item nor
// a failed condition, which are answers).
type storeFailure struct{ err error }

func (f storeFailure) Error() string { return f.err.Error() }
func (f storeFailure) Unwrap() error { return f.err }

// failingStore is a store whose failures are marked storeFailure.
type failingStore struct{ store.Store }

func mark(err error) error {
	if err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConditionFailed) {
		return err
	}
	return storeFailure{err}
}

func (s failingStore) Get(ctx context.Context, key store.Key) (store.Item, error) {
	it, err := s.Store.Get(ctx, key)
	return it, mark(err)
}

func (s failingStore) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	return mark(s.Store.Put(ctx, item, cond))
}

func (s failingStore) Update(ctx context.Context, key store.Key, upd *store.Update, cond store.Cond) (store.Item, error) {
	it, err := s.Store.Update(ctx, key, upd, cond)
	return it, mark(err)
}

func (s failingStore) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	return mark(s.Store.Delete(ctx, key, cond))
}

func (s failingStore) Transact(ctx context.Context, ops []store.Op) error {
	return mark(s.Store.Transact(ctx, ops))
}

func (s failingStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	p, err := s.Store.Query(ctx, q)
	return p, mark(err)
}
