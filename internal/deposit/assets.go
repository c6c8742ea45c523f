package deposit

import (
	"context"

	"tenger/internal/coins"
	"tenger/internal/ledger"
)

// ChainEntry is a chain button of the deposit and withdraw modals, with
// what a depositor needs to know of the chain.
type ChainEntry struct {
	Name          string `json:"name"`
	MainChainName string `json:"mainChainName"`
	TagType       int    `json:"tagType" doc:"1 when the chain takes a memo"`
	DepositMin    string `json:"depositMin" doc:"smallest deposit credited on the chain (0: any); a smaller one is not credited"`
	Confirmations int    `json:"confirmations" doc:"confirmations a deposit needs before it is credited (0 on Bank)"`
	// ArrivalSeconds is coins.ChainConfig.ArrivalSeconds.
	ArrivalSeconds int `json:"arrivalSeconds" doc:"expected seconds from a deposit's transfer until it is credited (its confirmations' blocks); 0 when not known"`
}

// chainEntry is the modals' entry of a chain.
func chainEntry(ch coins.ChainConfig) ChainEntry {
	return ChainEntry{Name: ch.Name, MainChainName: ch.MainChainName, TagType: ch.TagType, DepositMin: ch.DepositMin.String(),
		Confirmations: ch.Confirmations, ArrivalSeconds: ch.ArrivalSeconds()}
}

// AssetEntry is one coin of the modals' asset picker (spec §3 recharge list).
type AssetEntry struct {
	// Value is the code the modal sends (MNT to deposit, MONT to withdraw the fiat).
	Value string `json:"value"`
	Label string `json:"label"`
	Img   string `json:"img"`
	// Code is the coin symbol balances are kept under.
	Code string `json:"code"`
	// Fix is the decimals the modal shows.
	Fix           int32        `json:"fix"`
	NormalBalance string       `json:"normal_balance" doc:"available"`
	TotalBalance  string       `json:"totalBalance"`
	LockBalance   string       `json:"lockBalance" doc:"frozen"`
	Chains        []ChainEntry `json:"chains"`
	// TrustType is the default chain (bank for the fiat).
	TrustType    string `json:"trustType"`
	IsFiat       bool   `json:"isFiat"`
	DepositOpen  bool   `json:"depositOpen"`
	WithdrawOpen bool   `json:"withdrawOpen"`
}

// Assets lists the coins open in a direction with the user's spot balances.
func (s *Service) Assets(ctx context.Context, uid string, dir Direction) ([]AssetEntry, error) {
	bals, err := s.o.Ledger.Balances(ctx, uid, ledger.Spot)
	if err != nil {
		return nil, internal(err)
	}
	byCoin := map[string]ledger.Balance{}
	for _, b := range bals {
		if b.Account.Sub == "" {
			byCoin[b.Coin] = b
		}
	}
	out := []AssetEntry{}
	for _, c := range s.o.Coins.List() {
		e := AssetEntry{Value: c.Symbol, Label: c.Name, Img: c.Icon, Code: c.Symbol, Fix: c.Precision, IsFiat: c.IsFiat,
			DepositOpen: c.DepositOpen(), WithdrawOpen: c.WithdrawOpen(), Chains: []ChainEntry{}}
		code := c.DepositCode
		if dir == DirWithdraw {
			code = c.WithdrawCode
		}
		if code != "" {
			e.Value = code
		}
		for _, ch := range c.Chains {
			open := ch.DepositOpen
			if dir == DirWithdraw {
				open = ch.WithdrawOpen
			}
			if open {
				e.Chains = append(e.Chains, chainEntry(ch))
			}
		}
		// The fiat is always listed for withdrawals (spec §4 "MONT is
		// always listed"); other coins only when a chain is open.
		if len(e.Chains) == 0 && !(c.IsFiat && dir == DirWithdraw) {
			continue
		}
		if len(e.Chains) > 0 {
			e.TrustType = e.Chains[0].Name
		}
		b := byCoin[c.Symbol]
		e.NormalBalance = coins.FormatFixed(b.Available, c.Precision)
		e.LockBalance = coins.FormatFixed(b.Frozen, c.Precision)
		e.TotalBalance = coins.FormatFixed(b.Total(), c.Precision)
		out = append(out, e)
	}
	return out, nil
}
