package stacks

import (
	"strings"
	"testing"
)

// TestSecretsUnderCustomerKey: the three keys the stack keeps in Secrets
// Manager, and Sumsub's, are encrypted with one customer-managed KMS key that rotates
// every year; its policy trusts the account's IAM policies and names no
// role of a later stack (that would make the data stack depend on them);
// every role that may read one of those secrets may decrypt with the key,
// and only through Secrets Manager.
func TestSecretsUnderCustomerKey(t *testing.T) {
	// The data stack's other key is the uploads' (identity_test.go).
	keys := map[string]obj{}
	for id, k := range resources("data", "AWS::KMS::Key") {
		if strings.HasPrefix(id, "SecretsKey") {
			keys[id] = k
		}
	}
	if len(keys) != 1 {
		t.Fatalf("%d secrets keys in the data stack", len(keys))
	}
	var keyID string
	for id, k := range keys {
		keyID = id
		p := props(k)
		if p["EnableKeyRotation"] != true || p["RotationPeriodInDays"] != float64(365) {
			t.Errorf("rotation: %v every %v days", p["EnableKeyRotation"], p["RotationPeriodInDays"])
		}
		policy := mustJSON(p["KeyPolicy"])
		if !strings.Contains(policy, ":root") || strings.Contains(policy, "Role") || strings.Contains(policy, "Fn::ImportValue") {
			t.Errorf("key policy %s: the account's root only", policy)
		}
	}
	secrets := resources("data", "AWS::SecretsManager::Secret")
	if len(secrets) != 4 {
		t.Fatalf("%d secrets", len(secrets))
	}
	for id, s := range secrets {
		if got := mustJSON(props(s)["KmsKeyId"]); !strings.Contains(got, keyID) {
			t.Errorf("secret %s is encrypted with %s, not %s", id, got, keyID)
		}
	}

	// Every policy granting a secret's value also grants kms:Decrypt on
	// the key, conditioned on Secrets Manager.
	readers := 0
	for stack := range raw {
		for id, r := range raw[stack]["Resources"].(obj) {
			if r.(obj)["Type"] != "AWS::IAM::Policy" {
				continue
			}
			var reads, decrypts bool
			for _, s := range asList(props(r.(obj))["PolicyDocument"].(obj)["Statement"]) {
				st := s.(obj)
				actions := mustJSON(st["Action"])
				res := mustJSON(st["Resource"])
				if strings.Contains(actions, "secretsmanager:GetSecretValue") &&
					(strings.Contains(res, "AuthKey") || strings.Contains(res, "EngineKey") || strings.Contains(res, "OriginKey") ||
						strings.Contains(res, "SumsubSecret")) {
					reads = true
				}
				if strings.Contains(actions, "kms:Decrypt") && strings.Contains(res, keyID) {
					cond := mustJSON(st["Condition"])
					if !strings.Contains(cond, "kms:ViaService") || !strings.Contains(cond, "secretsmanager.") {
						t.Errorf("%s/%s decrypts with the key outside Secrets Manager: %s", stack, id, cond)
					}
					decrypts = true
				}
			}
			if reads {
				readers++
				if !decrypts {
					t.Errorf("%s/%s reads a secret but cannot decrypt it", stack, id)
				}
			}
		}
	}
	// The functions reading the auth, engine and origin keys, and the
	// engine task's execution role.
	if readers < 5 {
		t.Errorf("only %d policies read the secrets", readers)
	}
}
