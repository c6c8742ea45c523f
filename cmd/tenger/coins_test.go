package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tenger/internal/coins"
)

func TestCoinsSet(t *testing.T) {
	dir := t.TempDir()
	if err := runCoins([]string{"--data", dir, "set", "USDT", "TRC20", "withdrawFee", "1.5"}); err != nil {
		t.Fatal(err)
	}
	cat, err := coins.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, ok := cat.Chain("USDT", "TRC20")
	if !ok || ch.WithdrawFee.String() != "1.5" {
		t.Fatalf("fee after set: %+v", ch)
	}
	before, _ := os.ReadFile(filepath.Join(dir, coins.OperatorFile))
	if err := runCoins([]string{"--data", dir, "set", "USDT", "TRC20", "withdrawFee", "-1"}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("negative fee accepted: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, coins.OperatorFile))
	if string(before) != string(after) {
		t.Fatal("a refused edit changed the file")
	}
	if err := runCoins([]string{"--data", dir, "set", "USDT"}); err == nil {
		t.Fatal("incomplete command accepted")
	}
}
