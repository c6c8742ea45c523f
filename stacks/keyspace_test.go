package stacks

import (
	"slices"
	"strings"
	"testing"

	"tenger/internal/store/dynamo"
	"tenger/internal/store/keyspace"
)

// itemActions are the DynamoDB actions that read or write items by key,
// every one of which must carry the LeadingKeys condition on the table.
var itemActions = map[string]bool{
	"dynamodb:GetItem": true, "dynamodb:BatchGetItem": true, "dynamodb:Query": true, "dynamodb:Scan": true,
	"dynamodb:ConditionCheckItem": true, "dynamodb:PutItem": true, "dynamodb:UpdateItem": true,
	"dynamodb:DeleteItem": true, "dynamodb:BatchWriteItem": true,
	"dynamodb:PartiQLSelect": true, "dynamodb:PartiQLInsert": true, "dynamodb:PartiQLUpdate": true, "dynamodb:PartiQLDelete": true,
}

// tableID is the logical id of the table in the data stack, which the
// other stacks' statements name through its exported ARN.
func tableID(t *testing.T) string {
	t.Helper()
	for id := range resources("data", "AWS::DynamoDB::Table") {
		return id
	}
	t.Fatal("no table")
	return ""
}

// grantee is where the stacks put a key space's grantee: its stack and
// the prefix of its role's policy's logical id.
type grantee struct{ stack, policy string }

// grantees are every grantee the stacks build, by key space name.
func grantees() map[string]grantee {
	out := map[string]grantee{engineGrantee: {"engine", "EngineTaskTaskRole"}}
	for _, name := range APIFunctionNames() {
		out[name] = grantee{"api", name + "Role"}
	}
	for _, name := range []string{"ws", "wsapi", "stream"} {
		out[name] = grantee{"realtime", name + "Role"}
	}
	for _, name := range []string{"workflow", "wfstart", "p2ptimeout", "competition"} {
		out[name] = grantee{"workflows", name + "Role"}
	}
	out[adminFunction] = grantee{"admin", adminFunction + "Role"}
	return out
}

// statementsOf are the statements of a grantee's role policies.
func statementsOf(g grantee) []obj {
	var out []obj
	for id, p := range resources(g.stack, "AWS::IAM::Policy") {
		if strings.HasPrefix(id, g.policy) {
			for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
				out = append(out, s.(obj))
			}
		}
	}
	return out
}

// leadingKeys are the patterns of a statement's LeadingKeys condition and
// whether it has one, as GrantItems writes it.
func leadingKeys(st obj) ([]string, bool) {
	cond, _ := st["Condition"].(obj)
	like, _ := cond["ForAllValues:StringLike"].(obj)
	v, ok := like["dynamodb:LeadingKeys"]
	if !ok {
		return nil, false
	}
	var out []string
	for _, p := range asList(v) {
		out = append(out, p.(string))
	}
	return out, true
}

func actionsOf(st obj) []string {
	var out []string
	for _, a := range asList(st["Action"]) {
		out = append(out, a.(string))
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestEveryGranteeHasAKeySpace: every function the stacks build and the
// engine task have a declared key space, and every declaration is of a
// grantee the stacks build (none is left behind by a removed function).
func TestEveryGranteeHasAKeySpace(t *testing.T) {
	gs := grantees()
	for _, name := range append(FunctionNames(), engineGrantee) {
		if _, ok := gs[name]; !ok {
			t.Errorf("%s: no role policy is looked for (grantees)", name)
		}
		if _, ok := keyspace.Of(name); !ok {
			t.Errorf("%s has no key space in internal/store/keyspace", name)
		}
	}
	for _, g := range keyspace.All() {
		if _, ok := gs[g.Name]; !ok {
			t.Errorf("key space %s: no such function or task in the stacks", g.Name)
		}
	}
}

// TestTableItemGrantsCarryLeadingKeys: every statement, in every stack,
// that allows an item action on the table carries a
// ForAllValues:StringLike condition on dynamodb:LeadingKeys with at least
// one pattern, and such a statement allows no action that names no key
// (DescribeTable), which the condition would let through whatever the
// patterns.
func TestTableItemGrantsCarryLeadingKeys(t *testing.T) {
	table := tableID(t)
	found := 0
	for stack := range raw {
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
				st := s.(obj)
				res := mustJSON(st["Resource"])
				if !strings.Contains(res, table+"Arn") && !strings.Contains(res, `["`+table+`","Arn"]`) {
					continue // not the table (its stream has its own ARN)
				}
				actions := actionsOf(st)
				item := slices.ContainsFunc(actions, func(a string) bool { return itemActions[a] })
				keys, conditioned := leadingKeys(st)
				onIndex := strings.Contains(res, "/index/")
				switch {
				case item && !onIndex && (!conditioned || len(keys) == 0):
					t.Errorf("%s/%s allows %v on the table without a LeadingKeys condition", stack, id, actions)
				case conditioned && slices.Contains(actions, "dynamodb:DescribeTable"):
					t.Errorf("%s/%s allows DescribeTable under a LeadingKeys condition", stack, id)
				case item && !onIndex:
					found++
				}
			}
		}
	}
	if found < len(keyspace.All()) {
		t.Errorf("only %d conditioned item statements on the table, for %d key spaces", found, len(keyspace.All()))
	}
}

// TestTableGrantsFollowTheKeySpaces: each grantee's statements on the
// table hold exactly its declaration: the reads for every prefix it
// declares, the writes for the prefixes it writes and only for those
// (none for a grantee that writes nothing, as the trade function),
// queries of the indexes it declares by name and of no other, and
// DescribeTable only for a grantee that reads the change feed.
func TestTableGrantsFollowTheKeySpaces(t *testing.T) {
	table := tableID(t)
	writeActions := map[string]bool{}
	for _, a := range tableWriteActions {
		writeActions[a] = true
	}
	for name, g := range grantees() {
		space, ok := keyspace.Of(name)
		if !ok {
			continue // TestEveryGranteeHasAKeySpace
		}
		var reads, writes, describes bool
		var indexes []string
		for _, st := range statementsOf(g) {
			res := mustJSON(st["Resource"])
			if !strings.Contains(res, table+"Arn") && !strings.Contains(res, `["`+table+`","Arn"]`) {
				continue
			}
			actions := actionsOf(st)
			keys, _ := leadingKeys(st)
			if strings.Contains(res, "/index/") {
				for _, gsi := range dynamo.Indexes {
					if strings.Contains(res, "/index/"+gsi.Name+`"`) {
						indexes = append(indexes, gsi.Name)
					}
				}
				if !sameSet(actions, indexActions) {
					t.Errorf("%s: index statement allows %v", name, actions)
				}
				continue
			}
			for _, a := range actions {
				switch {
				case slices.Contains(tableReadActions, a):
					reads = true
					if want := keyspace.LeadingKeys(space.Prefixes()); !sameSet(keys, want) {
						t.Errorf("%s: %s for %v, its key space declares %v", name, a, keys, want)
					}
				case writeActions[a]:
					writes = true
					if want := keyspace.LeadingKeys(space.Writes); !sameSet(keys, want) {
						t.Errorf("%s: %s for %v, its key space writes %v", name, a, keys, want)
					}
				case a == "dynamodb:DescribeTable":
					describes = true
				}
			}
		}
		if reads != (len(space.Prefixes()) > 0) {
			t.Errorf("%s: reads the table %v, declares %v", name, reads, space.Prefixes())
		}
		if writes != (len(space.Writes) > 0) {
			t.Errorf("%s: writes the table %v, declares writes %v", name, writes, space.Writes)
		}
		if describes != space.Feed {
			t.Errorf("%s: DescribeTable %v, Feed %v", name, describes, space.Feed)
		}
		if !sameSet(indexes, space.Indexes) {
			t.Errorf("%s queries the indexes %v, declares %v", name, indexes, space.Indexes)
		}
	}
}

// TestTradeAndWalletLeadingKeys spells out two grantees' patterns, so a
// change of their declarations shows here too: the trade function reads
// and never writes; the wallet function writes its own records and the
// ledger's other accounts (transfers), and only reads sessions and the
// savings (its earn view).
func TestTradeAndWalletLeadingKeys(t *testing.T) {
	want := map[string]map[string][]string{
		"trade": {
			"dynamodb:GetItem": {"CONFIG#*", "ENGLEASE", "SBOOKM#*", "SCID#*", "SESSION#*", "SORD#*", "STRD#*", "SVOL#*",
				"USER#*", "WALLET#*", "refprice"},
		},
		"wallet": {
			"dynamodb:GetItem": {"CONFIG#*", "EARN#*", "EARNCFG", "EARNLOG#*", "EMAIL#*", "ENGLEASE", "FAV#*", "PHONE#*", "SESSION#*", "refprice",
				"BAL#*", "BANKIBAN#*", "CODE#*", "DEPADDR#*", "DEPIDX", "DEPIDX#*", "DEPOWNER#*", "FUSER#*", "POST#*", "RL#*", "RLF#*",
				"USER#*", "WALLET#*", "WD#*", "WDGUARD#*", "WF#*", "WSCONN#*"},
			"dynamodb:PutItem": {"BAL#*", "BANKIBAN#*", "CODE#*", "DEPADDR#*", "DEPIDX", "DEPIDX#*", "DEPOWNER#*", "FUSER#*", "POST#*",
				"RL#*", "RLF#*", "USER#*", "WALLET#*", "WD#*", "WDGUARD#*", "WF#*", "WSCONN#*"},
		},
	}
	for name, actions := range want {
		got := map[string][]string{}
		for _, st := range statementsOf(grantees()[name]) {
			keys, ok := leadingKeys(st)
			if !ok {
				continue
			}
			for _, a := range actionsOf(st) {
				got[a] = keys
			}
		}
		for action, keys := range actions {
			if !sameSet(got[action], keys) {
				t.Errorf("%s: %s for %v, want %v", name, action, got[action], keys)
			}
		}
		if name == "trade" {
			for _, a := range tableWriteActions {
				if _, ok := got[a]; ok {
					t.Errorf("trade may %s", a)
				}
			}
		}
	}
}
