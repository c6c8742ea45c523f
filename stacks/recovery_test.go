package stacks

import (
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
)

// TestRecovery: a locked vault, a daily plan of the table and the engine's
// file system copied to the other region's vault, and the keys replicated
// to the recovery region.
func TestRecovery(t *testing.T) {
	tpl := templates["recovery"]
	expect(t, "a vault locked for a week", func() {
		tpl.HasResourceProperties(jsii.String("AWS::Backup::BackupVault"), like(obj{
			"BackupVaultName": "tenger-dev", "LockConfiguration": like(obj{"MinRetentionDays": vaultLockDays}),
		}))
	})
	expect(t, "a daily plan kept 35 days, copied for 90", func() {
		tpl.HasResourceProperties(jsii.String("AWS::Backup::BackupPlan"), like(obj{
			"BackupPlan": like(obj{"BackupPlanRule": []any{like(obj{
				"ScheduleExpression": "cron(0 3 * * ? *)",
				"Lifecycle":          obj{"DeleteAfterDays": backupKeepDays},
				"CopyActions": []any{obj{"DestinationBackupVaultArn": "arn:aws:backup:ap-southeast-1:222222222222:backup-vault:tenger-dr",
					"Lifecycle": obj{"DeleteAfterDays": copyKeepDays}}},
			})}}),
		}))
	})
	var tableAndJournal, uploads string
	for _, r := range resources("recovery", "AWS::Backup::BackupSelection") {
		sel := mustJSON(props(r))
		if strings.Contains(sel, "UploadsBackupRole") {
			uploads = sel
		} else {
			tableAndJournal = sel
		}
	}
	if !strings.Contains(tableAndJournal, "Table") || !strings.Contains(tableAndJournal, "elasticfilesystem") {
		t.Errorf("selection %s", tableAndJournal)
	}
	// The uploads: the bucket, by a role that may back up and restore S3 and use the bucket's key.
	if !strings.Contains(uploads, "Uploads") {
		t.Errorf("uploads selection %s", uploads)
	}
	expect(t, "the uploads' backup role: S3 policies and the uploads key", func() {
		tpl.HasResourceProperties(jsii.String("AWS::IAM::Role"), like(obj{
			"ManagedPolicyArns": []any{
				like(obj{"Fn::Join": []any{"", []any{"arn:", obj{"Ref": "AWS::Partition"}, ":iam::aws:policy/AWSBackupServiceRolePolicyForS3Backup"}}}),
				like(obj{"Fn::Join": []any{"", []any{"arn:", obj{"Ref": "AWS::Partition"}, ":iam::aws:policy/AWSBackupServiceRolePolicyForS3Restore"}}}),
			},
		}))
		tpl.HasResourceProperties(jsii.String("AWS::IAM::Policy"), like(obj{
			"PolicyDocument": like(obj{"Statement": []any{like(obj{
				"Action": []any{"kms:Decrypt", "kms:GenerateDataKey", "kms:DescribeKey"},
			})}}),
		}))
	})
	secrets := resources("data", "AWS::SecretsManager::Secret")
	if len(secrets) != 4 { // the auth, engine and origin keys, and Sumsub's
		t.Fatalf("%d secrets", len(secrets))
	}
	for id, s := range secrets {
		if mustJSON(props(s)["ReplicaRegions"]) != `[{"Region":"ap-southeast-1"}]` {
			t.Errorf("%s replicas %s", id, mustJSON(props(s)["ReplicaRegions"]))
		}
	}
}
