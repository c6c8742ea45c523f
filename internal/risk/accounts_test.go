package risk

import "testing"

// A coin listed in the same group as balance changes (users already exist)
// keeps those changes in the batch, at the right user, account and coin.
func TestAddCoinKeepsTheChangedBalances(t *testing.T) {
	a := NewAccounts(4)
	btc, err := a.AddCoin(CoinInfo{Code: "BTC", Decimals: 8})
	if err != nil {
		t.Fatal(err)
	}
	usdt, _ := a.AddCoin(CoinInfo{Code: "USDT", Decimals: 8})
	u1, u2 := a.Register(1, "u1"), a.Register(2, "u2")
	if err := a.Credit(u2, KindSpot, usdt, 500); err != nil {
		t.Fatal(err)
	}
	a.ClearChanged()
	// The group: a credit and a hold, then a new coin, then another credit.
	if err := a.Credit(u1, KindSpot, btc, 7); err != nil {
		t.Fatal(err)
	}
	if err := a.Hold(u2, KindSpot, usdt, 200); err != nil {
		t.Fatal(err)
	}
	ton, err := a.AddCoin(CoinInfo{Code: "TON", Decimals: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Credit(u2, KindSpot, ton, 3); err != nil {
		t.Fatal(err)
	}
	// The hold's balance changes again after the listing: still once, with its first value before.
	a.Release(u2, KindSpot, usdt, 50)
	type change struct {
		user, coin  string
		before, now Balance
	}
	var got []change
	a.Changed(func(u *User, k Kind, c Coin, before, now Balance) {
		if k != KindSpot {
			t.Fatalf("kind %v", k)
		}
		got = append(got, change{u.ID, a.Coins()[c].Code, before, now})
	})
	want := []change{
		{"u1", "BTC", Balance{}, Balance{Avail: 7}},
		{"u2", "USDT", Balance{Avail: 500}, Balance{Avail: 350, Held: 150}},
		{"u2", "TON", Balance{}, Balance{Avail: 3}},
	}
	if len(got) != len(want) {
		t.Fatalf("changed %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("change %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
}
