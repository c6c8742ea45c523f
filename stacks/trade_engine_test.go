package stacks

import (
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// TestTradeFunction: the trade function serves /fe-ex-api/order/{proxy+} and
// /fe-ex-api/trade/{proxy+} with POST only, knows the table and the engine
// key, and may read the table (the engine writes the orders) and the
// engine key: nothing else (no queue, no notifications, no workflows, no
// push). Its place in the VPC is
// TestEngineClientFunctions'.
func TestTradeFunction(t *testing.T) {
	routes := map[string]string{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = mustJSON(props(r)["Target"])
	}
	var tradeFn string
	for id, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["SERVICE"] == "trade" {
			tradeFn = id
			if vars[envEngineKeySecret] == nil || vars["TABLE_NAME"] == nil || vars["ORDERS_QUEUE_URL"] != nil {
				t.Errorf("trade function environment lacks the engine key or the table, or names a queue: %v", vars)
			}
			if p := props(r); p["Architectures"] == nil || !strings.Contains(mustJSON(p["Architectures"]), "arm64") {
				t.Errorf("trade function is not arm64: %v", p["Architectures"])
			}
		}
	}
	if tradeFn == "" {
		t.Fatal("no trade function")
	}
	// Each route targets the trade integration.
	var integ string
	for id, r := range resources("api", "AWS::ApiGatewayV2::Integration") {
		if strings.Contains(mustJSON(props(r)["IntegrationUri"]), `"`+liveAliasOf("api", tradeFn)+`"`) {
			integ = id
		}
	}
	if integ == "" {
		t.Fatal("no integration for the trade function")
	}
	for _, path := range []string{"/fe-ex-api/order/{proxy+}", "/fe-ex-api/trade/{proxy+}"} {
		target, ok := routes["POST "+path]
		if !ok {
			t.Errorf("route POST %s missing", path)
		} else if !strings.Contains(target, integ) {
			t.Errorf("route POST %s targets %s, not the trade integration %s", path, target, integ)
		}
		if _, ok := routes["GET "+path]; ok {
			t.Errorf("route GET %s: no trading call is a GET", path)
		}
	}

	var doc string
	policies := 0
	for id, p := range resources("api", "AWS::IAM::Policy") {
		if strings.HasPrefix(id, "trade") {
			policies++
			doc += mustJSON(props(p)["PolicyDocument"])
		}
	}
	if policies != 1 {
		t.Fatalf("trade policies = %d, want 1", policies)
	}
	for _, want := range []string{"dynamodb:GetItem", "dynamodb:Query", "secretsmanager:GetSecretValue", "EngineKey"} {
		if !strings.Contains(doc, want) {
			t.Errorf("trade policy lacks %s: %s", want, doc)
		}
	}
	// The engine writes the orders: the trade function only reads.
	for _, not := range []string{"sqs:", "AuthKey", "ses:", "sns:", "states:", "execute-api:", "elasticfilesystem:",
		"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"} {
		if strings.Contains(doc, not) {
			t.Errorf("trade policy allows %s: %s", not, doc)
		}
	}
}

// TestEngineDataVolume: the engine's journal directory is an encrypted EFS
// file system reached through one access point (uid 65532, /engine), mounted
// read-write at /data with TLS and IAM authorization; the task role may only
// ClientMount and ClientWrite that file system through that access point;
// the file system admits the task role only, and NFS only from the engine's
// security group.
func TestEngineDataVolume(t *testing.T) {
	tpl := templates["engine"]
	expect(t, "one encrypted file system with backups", func() {
		tpl.ResourceCountIs(jsii.String("AWS::EFS::FileSystem"), jsii.Number(1))
		tpl.HasResourceProperties(jsii.String("AWS::EFS::FileSystem"), like(obj{
			"Encrypted":        true,
			"BackupPolicy":     obj{"Status": "ENABLED"},
			"FileSystemPolicy": assertions.Match_AnyValue(),
		}))
	})
	expect(t, "mount targets in both AZs", func() { tpl.ResourceCountIs(jsii.String("AWS::EFS::MountTarget"), jsii.Number(2)) })
	expect(t, "access point as the engine's user", func() {
		tpl.ResourceCountIs(jsii.String("AWS::EFS::AccessPoint"), jsii.Number(1))
		tpl.HasResourceProperties(jsii.String("AWS::EFS::AccessPoint"), like(obj{
			"PosixUser": obj{"Uid": engineUID, "Gid": engineUID},
			"RootDirectory": like(obj{
				"Path":         "/engine",
				"CreationInfo": obj{"OwnerUid": engineUID, "OwnerGid": engineUID, "Permissions": "750"},
			}),
		}))
	})
	expect(t, "task volume and mount at /data", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ECS::TaskDefinition"), like(obj{
			"Volumes": []any{like(obj{
				"Name": engineVolume,
				"EFSVolumeConfiguration": like(obj{
					"TransitEncryption":   "ENABLED",
					"AuthorizationConfig": like(obj{"IAM": "ENABLED", "AccessPointId": assertions.Match_AnyValue()}),
				}),
			})},
			"ContainerDefinitions": arrayWith(like(obj{
				"MountPoints": []any{obj{"ContainerPath": "/data", "SourceVolume": engineVolume, "ReadOnly": false}},
				"Environment": arrayWith(obj{"Name": "ENGINE_DATA_DIR", "Value": "/data"}),
			})),
		}))
	})

	// The file system's own policy names the task role only, over TLS.
	var fsID string
	for id, r := range resources("engine", "AWS::EFS::FileSystem") {
		fsID = id
		pol := mustJSON(props(r)["FileSystemPolicy"])
		if !strings.Contains(pol, "TaskRole") || !strings.Contains(pol, "aws:SecureTransport") || strings.Contains(pol, `"AWS":"*"`) {
			t.Errorf("file system policy = %s", pol)
		}
		if strings.Contains(pol, "ClientRootAccess") {
			t.Errorf("file system policy grants root access: %s", pol)
		}
	}

	// Task role: exactly ClientMount and ClientWrite on this file system,
	// conditioned on the access point.
	efsStatements := 0
	for id, p := range resources("engine", "AWS::IAM::Policy") {
		if !strings.Contains(id, "TaskRole") {
			continue
		}
		for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			st := s.(obj)
			if !strings.Contains(mustJSON(st["Action"]), "elasticfilesystem:") {
				continue
			}
			efsStatements++
			if got := mustJSON(st["Action"]); got != `["elasticfilesystem:ClientMount","elasticfilesystem:ClientWrite"]` {
				t.Errorf("engine EFS actions = %s", got)
			}
			if res := mustJSON(st["Resource"]); !strings.Contains(res, fsID) || strings.Contains(res, `"*"`) {
				t.Errorf("engine EFS resource = %s, want the file system %s", res, fsID)
			}
			if cond := mustJSON(st["Condition"]); !strings.Contains(cond, "elasticfilesystem:AccessPointArn") {
				t.Errorf("engine EFS statement not limited to the access point: %s", cond)
			}
		}
	}
	if efsStatements != 1 {
		t.Errorf("engine task EFS statements = %d, want 1", efsStatements)
	}

	// NFS: the file system's group admits 2049 from the engine's group only,
	// and the engine's group (no default egress) may reach it.
	ingress := 0
	for _, r := range resources("engine", "AWS::EC2::SecurityGroupIngress") {
		p := props(r)
		if p["FromPort"] == float64(2049) {
			ingress++
			if p["SourceSecurityGroupId"] == nil || p["CidrIp"] != nil {
				t.Errorf("NFS ingress not from a security group: %v", p)
			} else if !strings.Contains(mustJSON(p["SourceSecurityGroupId"]), "EngineSecurityGroup") {
				t.Errorf("NFS ingress from %v, want the engine's group", p["SourceSecurityGroupId"])
			}
		}
	}
	egress := 0
	for _, r := range resources("engine", "AWS::EC2::SecurityGroupEgress") {
		if p := props(r); p["FromPort"] == float64(2049) && strings.Contains(mustJSON(p["GroupId"]), "EngineSecurityGroup") {
			egress++
		}
	}
	for id, r := range resources("engine", "AWS::EC2::SecurityGroup") {
		if !strings.Contains(id, "EngineSecurityGroup") {
			continue
		}
		for _, e := range asList(props(r)["SecurityGroupEgress"]) {
			if e.(obj)["FromPort"] == float64(2049) {
				egress++
			}
		}
	}
	if ingress != 1 || egress != 1 {
		t.Errorf("NFS rules: ingress %d, egress %d; want 1 and 1", ingress, egress)
	}
}
