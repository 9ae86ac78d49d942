#!/usr/bin/env bash
# A data-acquisition server and device walking the device calls as real ones would:
# register (operator, Bearer) → token keys (number + secret) → push info → list binding lifecycles.
# Needs a running server (`npm start`) and curl; BASE_URL, TENANT, SERVER_NO, DEVICE_NO and SECRET may be overridden.
set -euo pipefail
BASE_URL=${BASE_URL:-http://localhost:8080}
TENANT=${TENANT:-acme}
SERVER_NO=${SERVER_NO:-DAS-0001}
DEVICE_NO=${DEVICE_NO:-DAD-0001}
SECRET=${SECRET:-correct-horse-battery-staple}
DEVICE=$BASE_URL/device-service/main-api/device
REGISTRY=$BASE_URL/device-service/system-api/device

# prints a field of the envelope's data (or the whole envelope when the call failed)
data() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);if(e.status!==200){console.error(s);process.exit(1)}console.log(process.argv[1]?e.data[process.argv[1]]:JSON.stringify(e.data,null,2))})' "${1:-}"; }
json() { curl -sS -H 'Content-Type: application/json' "$@"; }

# 1. the operator registers both with their provisioning secret (422 "... exists" on a second run is fine)
ADMIN=${ADMIN_TOKEN:-$(npm run --silent token -- --tenant "$TENANT" --user operator --roles administrator)}
json -H "Authorization: Bearer $ADMIN" "$REGISTRY/data-acquisition-server/save" -d "{\"dataAcquisitionServerNo\":\"$SERVER_NO\",\"name\":\"Hall B\",\"secret\":\"$SECRET\"}"; echo
json -H "Authorization: Bearer $ADMIN" "$REGISTRY/data-acquisition-device/save" -d "{\"dataAcquisitionDeviceNo\":\"$DEVICE_NO\",\"name\":\"Gate 3\",\"secret\":\"$SECRET\"}"; echo

# 2. each proves itself with number + secret and receives {token, expiresAt}
SERVER_TOKEN=$(curl -sS -G "$DEVICE/data-acquisition-server/getGenerationTokenKeyByDataAcquisitionServerNo" --data-urlencode "dataAcquisitionServerNo=$SERVER_NO" --data-urlencode "secret=$SECRET" | data token)
DEVICE_TOKEN=$(curl -sS -G "$DEVICE/data-acquisition-device/getGenerationTokenKeyByDataAcquisitionDeviceNo" --data-urlencode "dataAcquisitionDeviceNo=$DEVICE_NO" --data-urlencode "secret=$SECRET" | data token)

# 3. the server reports its internal address; the device reports its state and the server it is bound to
json -X PUT "$DEVICE/data-acquisition-server/updateInternalIpByDataAcquisitionServerNo?dataAcquisitionServerNo=$SERVER_NO&token=$SERVER_TOKEN" -d '{"internalIp":"10.0.4.17"}' | data >/dev/null
json "$DEVICE/data-acquisition-device/pushInfoByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=$DEVICE_NO&token=$DEVICE_TOKEN" \
  -d "{\"firmwareVersion\":\"2.4.1\",\"model\":\"DA-200\",\"ipAddress\":\"192.168.1.23\",\"macAddress\":\"00:1A:2B:3C:4D:5E\",\"dataAcquisitionServerNo\":\"$SERVER_NO\",\"batteryLevel\":87}" | data >/dev/null

# 4. what the device and the server see
echo "device $DEVICE_NO:"; curl -sS "$DEVICE/data-acquisition-device/getByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=$DEVICE_NO&token=$DEVICE_TOKEN" | data
echo "binding lifecycles of server $SERVER_NO:"; json -X POST "$DEVICE/data-acquisition-device/listByDataAcquisitionServerNo?dataAcquisitionServerNo=$SERVER_NO&token=$SERVER_TOKEN" | data
