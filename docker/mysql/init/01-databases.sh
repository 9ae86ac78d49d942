#!/bin/bash
# Sourced by the mysql image's entrypoint on first start (empty data dir): one database and one user
# per service, so each service's migrations and pool touch only its own schema.
set -euo pipefail
mysql --protocol=socket -uroot -p"${MYSQL_ROOT_PASSWORD}" <<SQL
CREATE DATABASE IF NOT EXISTS main_service CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci;
CREATE DATABASE IF NOT EXISTS device_service CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci;
CREATE USER IF NOT EXISTS 'main_service'@'%' IDENTIFIED BY '${MAIN_SERVICE_DB_PASSWORD}';
CREATE USER IF NOT EXISTS 'device_service'@'%' IDENTIFIED BY '${DEVICE_SERVICE_DB_PASSWORD}';
GRANT ALL PRIVILEGES ON main_service.* TO 'main_service'@'%';
GRANT ALL PRIVILEGES ON device_service.* TO 'device_service'@'%';
SQL
