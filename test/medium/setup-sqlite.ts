// The dialect of this project's databases (currentTestDb); no application is registered here.
process.env.LINKDOCK_TEST_DB = 'sqlite';
