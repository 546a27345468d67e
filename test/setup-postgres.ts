process.env.LINKDOCK_TEST_DB = 'postgres';
